"use client";

import { useMemo } from "react";
import { cn } from "@/components/ui/cn";
import { boundedWordDiff } from "@/lib/util/bounded-word-diff";

/**
 * Two outputs side by side (stacked on a phone): words only in the earlier one struck through on
 * the left, words new in the later one marked on the right. Loaded with the comparison only, in
 * the browser; two outputs too long or too different for a bounded word diff are shown as they are.
 */
export default function AttemptDiff({
  before,
  after,
  beforeLabel,
  afterLabel,
  between,
}: {
  before: string;
  after: string;
  beforeLabel: string;
  afterLabel: string;
  /** Between the two (why the second came): a third column; none for two runs compared. */
  between?: React.ReactNode;
}) {
  const diff = useMemo(() => boundedWordDiff(before, after), [before, after]);
  const parts = diff.kind === "parts" ? diff.parts : [];
  const added = parts.filter((p) => p.added).reduce((n, p) => n + p.value.length, 0);
  const removed = parts.filter((p) => p.removed).reduce((n, p) => n + p.value.length, 0);
  const side = (keep: "removed" | "added") =>
    parts.map((p, i) => {
      if (keep === "removed" && p.added) return null;
      if (keep === "added" && p.removed) return null;
      const changed = p.added || p.removed;
      return (
        <span
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts are a fixed sequence
          key={i}
          className={cn(
            changed &&
              (p.removed
                ? "rounded-sm bg-tone-danger text-tone-danger-foreground line-through"
                : "rounded-sm bg-tone-success text-tone-success-foreground"),
          )}
        >
          {changed && <span className="sr-only">{p.added ? "[added: " : "[removed: "}</span>}
          {p.value}
          {changed && <span className="sr-only">]</span>}
        </span>
      );
    });
  const pane = (label: string, body: React.ReactNode) => (
    <div className="grid min-w-0 content-start gap-1.5">
      <h4 className="font-medium text-muted-foreground text-xs">{label}</h4>
      <div className="min-w-0 whitespace-pre-wrap break-words rounded-md border bg-background p-3 font-mono text-xs leading-5">
        {body}
      </div>
    </div>
  );
  return (
    <div className="grid gap-3">
      <p className="text-muted-foreground text-xs">
        {diff.kind === "too_different"
          ? `These outputs ${diff.reason === "length" ? "are too long" : "differ in too many places"} to show word by word: here they are side by side.`
          : added || removed
            ? `${formatChars(added)} added · ${formatChars(removed)} removed`
            : "The two outputs are the same."}
      </p>
      <div
        className={cn(
          "grid gap-3",
          between ? "md:grid-cols-[minmax(0,1fr)_minmax(0,14rem)_minmax(0,1fr)]" : "md:grid-cols-2",
        )}
      >
        {pane(beforeLabel, diff.kind === "parts" ? side("removed") : before)}
        {between && <div className="grid content-start gap-1.5 md:pt-5">{between}</div>}
        {pane(afterLabel, diff.kind === "parts" ? side("added") : after)}
      </div>
    </div>
  );
}

const formatChars = (n: number) => `${n} ${n === 1 ? "character" : "characters"}`;
