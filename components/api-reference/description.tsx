import { InlineCode } from "@/components/inline-code";
import { CopyButton } from "@/components/ui/copy-button";

// An operation's description: paragraphs with `code` spans, and fenced code blocks (a client's
// snippet) shown as blocks, each with a copy button.
const FENCE = /```[\w-]*\n([\s\S]*?)```/g;

type Part = { text: string } | { code: string };

function partsOf(description: string): Part[] {
  const parts: Part[] = [];
  let last = 0;
  for (const m of description.matchAll(FENCE)) {
    parts.push({ text: description.slice(last, m.index) }, { code: m[1] ?? "" });
    last = m.index + m[0].length;
  }
  parts.push({ text: description.slice(last) });
  return parts.filter((p) => ("code" in p ? p.code.trim() : p.text.trim()));
}

export function Description({ text, className }: { text: string; className: string }) {
  return (
    <div className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-2">
      {partsOf(text).map((part, i) =>
        "code" in part ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text never reorder
          <figure key={i} className="m-0 grid min-w-0 overflow-hidden rounded-lg bg-muted">
            <figcaption className="flex items-center justify-between border-b px-3 py-1 text-muted-foreground text-xs">
              Example
              <CopyButton text={part.code.trimEnd()} what="example" />
            </figcaption>
            <pre className="m-0 overflow-x-auto p-3 font-mono text-xs leading-5">
              {part.code.trimEnd()}
            </pre>
          </figure>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text never reorder
          <p key={i} className={className}>
            <InlineCode text={part.text.trim()} />
          </p>
        ),
      )}
    </div>
  );
}
