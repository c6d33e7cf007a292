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
): Column<Delivery>[] {
  return [
    { header: "Time", cell: (d) => <RelativeTime iso={d.created_at} /> },
    { header: "Event", cell: (d) => <code className="font-mono text-xs">{d.kind}</code> },
    { header: "Run", cellClassName: "whitespace-nowrap", cell: runCell },
    {
      header: "URL",
      cellClassName: "max-w-72",
      cell: (d) => (
        <span className="block truncate font-mono text-xs" title={d.url}>
          {d.url}
        </span>
      ),
    },
    { header: "Status", cell: statusCell },
    {
      header: "Attempts",
      className: "text-right",
      cellClassName: "tabular-nums",
      cell: (d) => d.attempts,
    },
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
        (d.status === "failed" || d.status === "pending") && (
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

function runCell(d: Delivery) {
  if (!d.crew) return <span className="font-mono text-xs">{shortId(d.execution_id)}</span>;
  return (
    <Link
      href={`/crews/${encodeURIComponent(d.crew)}/runs/${d.execution_id}`}
      className="text-link hover:underline"
    >
      {d.crew} · <span className="font-mono text-xs">{shortId(d.execution_id)}</span>
    </Link>
  );
}

function statusCell(d: Delivery) {
  const last = d.last_status_code ? `HTTP ${d.last_status_code}` : d.last_error;
  return (
    <div className="grid gap-0.5">
      <Badge tone={queued(d) ? "neutral" : TONE[d.status]}>
        {queued(d) ? "Queued" : LABEL[d.status]}
      </Badge>
      {last && (
        <span className="max-w-56 truncate text-muted-foreground text-xs" title={last}>
          {last}
        </span>
      )}
    </div>
  );
}
