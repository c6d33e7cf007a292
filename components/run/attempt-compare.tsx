"use client";

import { MessageSquareQuote } from "lucide-react";
import dynamic from "next/dynamic";
import { useState } from "react";
import { Label, Select } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import type { TraceTask } from "./trace-types";

// The diff library comes with the comparison, not with the page.
const AttemptDiff = dynamic(() => import("./attempt-diff"), {
  ssr: false,
  loading: () => <Skeleton className="h-40 w-full" />,
});

/** Attempt N's output beside attempt N−1's, with what the reviewer asked for between them. */
export function AttemptCompare({ task }: { task: TraceTask }) {
  const withOutput = task.attempts.filter((a) => a.output !== null);
  const latest = withOutput.at(-1)?.attempt ?? 2;
  const [shown, setShown] = useState<number | null>(null);
  const n = shown ?? latest;
  const after = withOutput.find((a) => a.attempt === n);
  const before = [...withOutput].reverse().find((a) => a.attempt < n);
  if (withOutput.length < 2 || !after || !before) return null;
  const id = `compare-${task.taskId}`;
  const review = before.review;
  return (
    <section aria-labelledby={`${id}-title`} className="grid gap-3 rounded-xl border bg-card p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={`${id}-title`} className="m-0 font-semibold text-base">
          {task.name}: attempt {after.attempt} vs {before.attempt}
        </h2>
        {withOutput.length > 2 && (
          <div className="flex items-center gap-2">
            <Label htmlFor={id}>Compare attempt</Label>
            <Select
              id={id}
              className="w-auto"
              value={n}
              onChange={(e) => setShown(Number(e.target.value))}
            >
              {withOutput.slice(1).map((a) => (
                <option key={a.attempt} value={a.attempt}>
                  {a.attempt} with {a.attempt - 1}
                </option>
              ))}
            </Select>
          </div>
        )}
      </div>
      <AttemptDiff
        before={before.output ?? ""}
        after={after.output ?? ""}
        beforeLabel={`Attempt ${before.attempt}`}
        afterLabel={`Attempt ${after.attempt}`}
        between={
          <div className="grid gap-1 rounded-md bg-tone-warning p-3 text-sm text-tone-warning-foreground">
            <p className="flex items-center gap-1.5 font-medium text-xs">
              <MessageSquareQuote aria-hidden className="size-3.5" />
              {review
                ? `${review.decision === "approve" ? "Approved" : "Sent back"} by ${review.reviewer}`
                : "Ran again"}
            </p>
            {review?.feedback ? (
              <p className="break-words">“{review.feedback}”</p>
            ) : (
              <p className="text-xs">No feedback was given.</p>
            )}
          </div>
        }
      />
    </section>
  );
}
