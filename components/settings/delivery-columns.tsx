import Link from "next/link";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { RelativeTime } from "@/components/ui/relative-time";
import type { settingsApi } from "@/lib/api/client";
import { shortId } from "@/lib/format/id";
import type { Column } from "./kit/data-table";
import { Missing } from "./kit/section";

export type Delivery = Awaited<ReturnType<typeof settingsApi.deliveries>>["deliveries"][number];

const TONE: Record<Delivery["status"], BadgeTone> = {
  pending: "warning",
  delivering: "info",
  succeeded: "success",
  failed: "danger",
};
const LABEL: Record<Delivery["status"], string> = {
  pending: "Retrying",
  delivering: "Delivering",
  succeeded: "Delivered",
  failed: "Failed",
};

// A pending delivery never tried waits its turn (step events go out in order per endpoint).
const queued = (d: Delivery) => d.status === "pending" && d.attempts === 0;

/** The delivery log's columns; `sending` is the delivery being sent again, if any. */
export function deliveryColumns(
  onRedeliver: (id: string) => void,
  sending: string | undefined,
  crewName: (slug: string) => string,
): Column<Delivery>[] {
  return [
    { header: "Time", cell: (d) => <RelativeTime iso={d.created_at} /> },
    { header: "Event", cell: (d) => <code className="font-mono text-xs">{d.kind}</code> },
    { header: "Run", cellClassName: "whitespace-nowrap", cell: (d) => runCell(d, crewName) },
    {
      header: "URL",
      cellClassName: "max-w-80",
      cell: (d) => (
        // Wrapped, not cut: where the secret was redacted must show.
        // Wide enough (on a wide screen) that it wraps once or twice, not every few characters.
        <span className="block break-all font-mono text-xs md:min-w-48">{d.url}</span>
      ),
    },
    { header: "Status", cell: statusCell },
    { header: "Attempts", cell: attemptsCell },
    {
      header: "Next retry",
      cell: (d) =>
        d.next_attempt_at && !queued(d) ? <RelativeTime iso={d.next_attempt_at} /> : <Missing />,
    },
    {
      header: "Actions",
      hideHeader: true,
      cellClassName: "text-right",
      cell: (d) =>
        // A delivery not yet tried waits its turn: sending it again would only jump the queue.
        (d.status === "failed" || d.status === "pending") &&
        !queued(d) && (
          <Button
            size="sm"
            variant="ghost"
            onClick={() => onRedeliver(d.id)}
            disabled={sending === d.id}
          >
            {sending === d.id ? "Sending…" : "Redeliver"}
          </Button>
        ),
    },
  ];
}

function runCell(d: Delivery, crewName: (slug: string) => string) {
  if (!d.crew) return <span className="font-mono text-xs">{shortId(d.execution_id)}</span>;
  return (
    <Link
      href={`/crews/${encodeURIComponent(d.crew)}/runs/${d.execution_id}`}
      className="text-link hover:underline"
    >
      {crewName(d.crew)} · <span className="font-mono text-xs">{shortId(d.execution_id)}</span>
    </Link>
  );
}

// What the receiver answered, or why nothing was answered: said in full, wrapped.
const outcome = (code: number | null, error: string | null) =>
  [code ? `HTTP ${code}` : null, error].filter(Boolean).join(": ");

function statusCell(d: Delivery) {
  const last = outcome(d.last_status_code, d.status === "succeeded" ? null : d.last_error);
  return (
    <div className="grid min-w-32 max-w-72 justify-items-start gap-0.5">
      <Badge tone={queued(d) ? "neutral" : TONE[d.status]}>
        {queued(d) ? "Queued" : LABEL[d.status]}
      </Badge>
      {last && <span className="break-words text-muted-foreground text-xs">{last}</span>}
    </div>
  );
}

/** How many attempts, and each one on demand: when, what came back, how long it took. */
function attemptsCell(d: Delivery) {
  if (!d.attempts_log.length) return <span className="tabular-nums">{d.attempts}</span>;
  return (
    <details className="group text-sm">
      <summary className="cursor-pointer whitespace-nowrap tabular-nums text-link hover:underline">
        {d.attempts} {d.attempts === 1 ? "attempt" : "attempts"}
      </summary>
      <ol className="mt-1.5 grid list-none gap-1.5 p-0 text-xs">
        {d.attempts_log.map((a) => (
          <li key={a.attempt} className="grid gap-0.5 border-l-2 pl-2">
            <span className="text-muted-foreground">
              #{a.attempt} · <RelativeTime iso={a.started_at} /> ·{" "}
              <span className="tabular-nums">{a.latency_ms} ms</span>
            </span>
            <span className="break-words">{outcome(a.status_code, a.error) || "No answer"}</span>
          </li>
        ))}
      </ol>
    </details>
  );
}
