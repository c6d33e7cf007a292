"use client";

import { CircleStop, RotateCcw } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { RelativeTime } from "@/components/ui/relative-time";
import type { ExecutionEvent } from "@/lib/contract/status";
import { useRerun } from "./run-actions";
import type { RunStatus } from "./run-types";

/**
 * How the run ended, said once: a stop is somebody's decision (neutral, who and when); a failure
 * states its error in words, with Re-run.
 */
export function RunOutcome({
  crew,
  status,
  events,
  canStart,
}: {
  crew: string;
  status: RunStatus;
  events: ExecutionEvent[];
  canStart: boolean;
}) {
  const again = useRerun(crew);
  if (status.status === "cancelled") {
    const stoppedAt =
      status.stopped_at ??
      events.findLast((e) => e.type === "execution_cancelled")?.created_at ??
      status.updated_at;
    return (
      <div
        role="status"
        data-testid="run-outcome"
        className="flex items-start gap-2.5 rounded-lg border bg-muted px-3 py-2.5 text-sm"
      >
        <CircleStop aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
        <p>
          <span className="font-medium">Stopped</span>
          {status.stopped_by ? ` by ${status.stopped_by}` : " on request"}{" "}
          <RelativeTime iso={stoppedAt} />. Tasks that had not finished did not run to the end.
        </p>
      </div>
    );
  }
  if (status.status === "error") {
    const inputs = status.inputs;
    return (
      <Alert tone="danger" title="This run failed" data-testid="run-outcome">
        <p>{status.error ?? "The engine gave no reason."}</p>
        {canStart && inputs && (
          <Button
            size="sm"
            className="mt-2"
            disabled={again.busy}
            onClick={() => again.start(status.kickoff_id)}
          >
            <RotateCcw aria-hidden />
            {again.busy ? "Starting…" : "Re-run with the same inputs"}
          </Button>
        )}
      </Alert>
    );
  }
  return null;
}
