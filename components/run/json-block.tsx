import { CopyButton } from "@/components/ui/copy-button";

/** A value as formatted JSON (a string as it is), wrapped, in monospace, with copy. */
export function JsonBlock({ label, value }: { label: string; value: unknown }) {
  const text = typeof value === "string" ? value : (JSON.stringify(value, null, 2) ?? "null");
  return (
    <div className="grid min-w-0 gap-1">
      <div className="flex items-center justify-between">
        <h4 className="font-medium text-muted-foreground text-xs">{label}</h4>
        <CopyButton text={text} what={label.toLowerCase()} />
      </div>
      <pre className="max-h-80 overflow-auto whitespace-pre-wrap break-words rounded-md bg-muted p-3 font-mono text-xs leading-5">
        {text}
      </pre>
    </div>
  );
}
