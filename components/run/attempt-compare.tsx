"use client";

import { MessageSquareQuote } from "lucide-react";
import dynamic from "next/dynamic";
import { useState } from "react";
import { cn } from "@/components/ui/cn";
import { Label, Select } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import type { TraceTask } from "./trace-types";

// The diff library comes with the comparison, not with the page.
const AttemptDiff = dynamic(() => import("./attempt-diff"), {
  ssr: false,
  loading: () => <Skeleton className="h-40 w-full" />,
});

/** One version of a task's output: an agent's attempt, or a reviewer's edit of one. */
type Revision = {
  key: string;
  label: string;
  output: string;
  /** What happened after it: the reviewer's decision (and feedback), or an edit. */
  after: { title: string; feedback: string } | null;
};

/** A task's outputs in order: each attempt, and a reviewer's edit as a revision of its own. */
function revisionsOf(task: TraceTask): Revision[] {
  const out: Revision[] = [];
  for (const a of task.attempts) {
    if (a.output === null) continue;
    const review = a.review;
    out.push({
      key: `attempt-${a.attempt}`,
      label: `Attempt ${a.attempt}`,
      output: a.output,
      after: a.edit
        ? {
            title: `Edited by ${a.edit.reviewer} before ${a.edit.when ?? "approving"}`,
            feedback: review?.feedback ?? "",
          }
        : review
          ? {
              title: `${review.decision === "approve" ? "Approved" : "Sent back"} by ${review.reviewer}`,
              feedback: review.feedback,
            }
          : { title: "Ran again", feedback: "" },
    });
    if (a.edit)
      out.push({
        key: `edit-${a.attempt}`,
        label: `Edited by ${a.edit.reviewer}`,
        output: a.edit.output,
        after: null,
      });
  }
  return out;
}

/** A task's output beside the one before it, with what the reviewer did between them. */
export function AttemptCompare({ task }: { task: TraceTask }) {
  const revisions = revisionsOf(task);
  const [shown, setShown] = useState<number | null>(null);
  const n = shown ?? revisions.length - 1;
  const after = revisions[n];
  const before = revisions[n - 1];
  if (revisions.length < 2 || !after || !before) return null;
  const id = `compare-${task.taskId}`;
  const between = before.after;
  const edit = !after.key.startsWith("attempt");
  return (
    <section aria-labelledby={`${id}-title`} className="grid gap-3 rounded-xl border bg-card p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={`${id}-title`} className="m-0 font-semibold text-base">
          {/* In the order the columns read: "Attempt 1 → Attempt 2", "Attempt 1 → Edited by ada" */}
          {task.name}: {before.label} → {after.label}
        </h2>
        {revisions.length > 2 && (
          <div className="flex items-center gap-2">
            <Label htmlFor={id}>Compare</Label>
            <Select
              id={id}
              className="w-auto"
              value={n}
              onChange={(e) => setShown(Number(e.target.value))}
            >
              {revisions.slice(1).map((r, i) => (
                <option key={r.key} value={i + 1}>
                  {r.label} with {revisions[i]?.label}
                </option>
              ))}
            </Select>
          </div>
        )}
      </div>
      <AttemptDiff
        before={before.output}
        after={after.output}
        beforeLabel={before.label}
        afterLabel={after.label}
        between={
          // A send-back's feedback is why the agent ran again (amber); an edit is a plain note.
          <div
            className={cn(
              "grid gap-1 rounded-md p-3 text-sm",
              edit ? "bg-muted text-foreground" : "bg-tone-warning text-tone-warning-foreground",
            )}
          >
            <p className="flex items-center gap-1.5 font-medium text-xs">
              <MessageSquareQuote aria-hidden className="size-3.5" />
              {between?.title ?? "Ran again"}
            </p>
            {between?.feedback ? (
              <p className="break-words">“{between.feedback}”</p>
            ) : edit ? null : (
              <p className="text-xs">No feedback was given.</p>
            )}
          </div>
        }
      />
    </section>
  );
}
