import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { formatExact, formatRelative } from "@/lib/format/time";
import { type CrewInfo, type InboxRun, orderedInputs, waitingSince } from "./types";

const plain = (md: string) =>
  md
    .replace(/```[\s\S]*?```/g, " ")
    .replace(/[#>*_`[\]]/g, "")
    .replace(/\s+/g, " ")
    .trim();

/** One run in the queue: crew, task, key inputs, how long it has waited, the start of the output. */
export function QueueItem({
  run,
  taskName,
  crews,
  selected,
  implicit,
  approving,
  now,
}: {
  run: InboxRun;
  taskName: string;
  crews: CrewInfo;
  selected: boolean;
  /** Selected only because it is first: marked on wide screens, where its review shows. */
  implicit: boolean;
  approving: boolean;
  now: number;
}) {
  const pending = run.pending_human_input;
  if (!pending) return null;
  const since = waitingSince(run);
  const inputs = orderedInputs(run, crews).slice(0, 2);
  return (
    <Link
      href={{ pathname: "/inbox", query: { run: run.id } }}
      replace
      scroll={false}
      aria-current={selected && !implicit ? "true" : undefined}
      data-run={run.id}
      className={cn(
        "grid gap-1 border-l-2 px-4 py-3 text-foreground text-sm no-underline outline-offset-[-2px] transition-colors hover:bg-muted",
        selected && !implicit
          ? "border-l-primary bg-muted"
          : selected
            ? "border-l-transparent lg:border-l-primary lg:bg-muted"
            : "border-l-transparent",
      )}
    >
      <span className="flex items-baseline gap-2">
        <span className="min-w-0 truncate font-medium">{crews[run.crew]?.name ?? run.crew}</span>
        <time
          dateTime={since}
          title={formatExact(since)}
          className="ml-auto shrink-0 text-muted-foreground text-xs"
          suppressHydrationWarning
        >
          {formatRelative(since, now)}
        </time>
      </span>
      <span className="flex min-w-0 items-center gap-1.5">
        <span className="min-w-0 truncate">{taskName}</span>
        {pending.attempt > 1 && <Badge tone="warning">Attempt {pending.attempt}</Badge>}
        {approving && <Badge tone="info">Approving…</Badge>}
      </span>
      {inputs.length > 0 && (
        <span className="flex min-w-0 gap-3 text-muted-foreground text-xs">
          {inputs.map(([k, v]) => (
            <span key={k} className="min-w-0 max-w-[50%] truncate">
              <span className="font-medium">{k}:</span> {String(v)}
            </span>
          ))}
        </span>
      )}
      <span className="line-clamp-2 text-muted-foreground text-xs">{plain(pending.output)}</span>
    </Link>
  );
}
