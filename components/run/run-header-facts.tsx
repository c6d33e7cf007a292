import { RelativeTime } from "@/components/ui/relative-time";
import { ShortId } from "@/components/ui/short-id";
import { StatusPill } from "@/components/ui/status-pill";
import type { RunStatus } from "./run-types";

/**
 * The line under a run's title: its state, id, who started it, progress, and whether the page is
 * live — which gives way to when it ended, in the same place, so the header keeps its shape.
 */
export function RunHeaderFacts({
  status,
  by,
  active,
  mode,
}: {
  status: RunStatus;
  by: string | null;
  active: boolean;
  mode: "connecting" | "live" | "polling" | "ended";
}) {
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-muted-foreground text-sm">
      <span data-testid="run-status">
        <StatusPill status={status.status} />
      </span>
      <span className="flex items-center gap-1">
        Run <ShortId id={status.kickoff_id} />
      </span>
      {by && <span>Started by {by}</span>}
      <span className="tabular-nums">
        {status.progress.completed_tasks}/{status.progress.total_tasks} tasks done
      </span>
      <span className="flex items-center gap-1.5" role="status">
        {active ? (
          <>
            <span
              aria-hidden
              className={`size-2 rounded-full ${mode === "live" ? "motion-safe:animate-pulse bg-chart-1" : "bg-chart-3"}`}
            />
            {mode === "live" ? "Live" : mode === "polling" ? "Updating every 2 s" : "Connecting…"}
          </>
        ) : (
          <>
            Ended <RelativeTime iso={status.stopped_at ?? status.updated_at} />
          </>
        )}
      </span>
    </div>
  );
}
