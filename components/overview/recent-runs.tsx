import Link from "next/link";
import { useCrewName } from "@/components/crew-names";
import { type RunRow, runDuration, runHref } from "@/components/runs/model";
import { RelativeTime } from "@/components/ui/relative-time";
import { StatusPill } from "@/components/ui/status-pill";
import { formatDuration } from "@/lib/format/duration";
import { shortId } from "@/lib/format/id";

/** The latest runs, one line each: status, crew, id, when, how long. */
export function RecentRuns({ runs }: { runs: RunRow[] }) {
  const crewName = useCrewName();
  return (
    <ul className="divide-y">
      {runs.map((r) => (
        <li key={r.id} className="relative flex items-center gap-3 px-4 py-2.5 hover:bg-muted/60">
          <span className="shrink-0 sm:w-32">
            <StatusPill status={r.status} />
          </span>
          <div className="flex min-w-0 flex-1 items-baseline gap-2">
            <Link
              href={runHref(r)}
              className="truncate font-medium text-foreground after:absolute after:inset-0 hover:underline"
            >
              {crewName(r.crew)}
            </Link>
            <code className="hidden bg-transparent p-0 font-mono text-muted-foreground text-xs sm:inline">
              {shortId(r.id)}
            </code>
          </div>
          <span className="hidden text-muted-foreground text-xs tabular-nums sm:inline">
            {formatDuration(runDuration(r))}
          </span>
          <RelativeTime iso={r.created_at} className="relative text-muted-foreground text-xs" />
        </li>
      ))}
    </ul>
  );
}
