import ReactMarkdown from "react-markdown";
import { cn } from "@/components/ui/cn";
import { boundMarkdown } from "@/lib/format/markdown-budget";

// Type for agent output without a typography plugin: headings, lists, quotes and code, spaced
// for reading, in both themes.
const prose = cn(
  "markdown min-w-0 space-y-3 text-sm leading-6 [overflow-wrap:anywhere]",
  "[&_h1]:font-semibold [&_h1]:text-lg [&_h2]:font-semibold [&_h2]:text-base [&_h3]:font-semibold [&_h4]:font-medium",
  "[&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-5 [&_ol]:list-decimal [&_ol]:space-y-1 [&_ol]:pl-5",
  "[&_blockquote]:border-l-2 [&_blockquote]:pl-3 [&_blockquote]:text-muted-foreground",
  "[&_a]:text-link [&_a]:underline [&_a]:underline-offset-2 [&_strong]:font-semibold [&_hr]:border-border",
  "[&_code]:rounded [&_code]:bg-muted [&_code]:px-1 [&_code]:py-0.5 [&_code]:text-[0.85em]",
  "[&_pre]:overflow-x-auto [&_pre]:whitespace-pre-wrap [&_pre]:rounded-md [&_pre]:bg-muted [&_pre]:p-3 [&_pre_code]:bg-transparent [&_pre_code]:p-0",
);

// Agent output as Markdown; raw HTML in it is not rendered (react-markdown's safe default). Only
// a bounded prefix is parsed (lib/format/markdown-budget.ts): the rest is shown as plain text.
export function Markdown({ text, className }: { text: string; className?: string }) {
  const { markdown, plain } = boundMarkdown(text);
  return (
    <div className={cn(prose, className)}>
      {markdown && <ReactMarkdown>{markdown}</ReactMarkdown>}
      {plain && (
        <>
          <p className="text-muted-foreground text-xs">
            {markdown ? "The rest is" : "This text is"} shown as plain text: too long or too deeply
            nested to format.
          </p>
          <p className="whitespace-pre-wrap">{plain}</p>
        </>
      )}
    </div>
  );
}
