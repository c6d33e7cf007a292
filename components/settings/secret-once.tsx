import { CopyButton } from "@/components/ui/copy-button";

/** A secret shown once, right after it was made: selectable, with a copy button and a warning. */
export function SecretOnce({
  secret,
  what,
  testId,
  note = "Copy it now: it is shown once and cannot be shown again.",
}: {
  secret: string;
  what: string;
  testId?: string;
  note?: string;
}) {
  return (
    <div
      role="status"
      className="grid gap-2 rounded-lg border border-border bg-tone-warning p-3 text-tone-warning-foreground text-sm"
    >
      <p className="font-medium">{note}</p>
      <div className="flex min-w-0 items-center gap-2 rounded-md border border-border bg-card p-1.5 pl-3 text-foreground">
        <code data-testid={testId} className="min-w-0 flex-1 break-all font-mono text-xs">
          {secret}
        </code>
        <CopyButton text={secret} label="Copy" what={what} />
      </div>
    </div>
  );
}
