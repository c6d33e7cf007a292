"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ChevronLeft, ChevronRight, Send } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Label, Select } from "@/components/ui/input";
import { RelativeTime } from "@/components/ui/relative-time";
import { Skeleton } from "@/components/ui/skeleton";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "@/components/ui/table";
import { settingsApi } from "@/lib/api/client";
import type { Delivery } from "@/lib/contract/webhooks";
import { shortId } from "@/lib/format/id";

const PAGE_SIZE = 20;
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

/** Webhook deliveries, newest first, a page at a time; failed ones can be sent again. */
export function DeliveriesSection() {
  const qc = useQueryClient();
  const [status, setStatus] = useState("");
  // Cursors of the pages seen so far: [undefined] is the newest page.
  const [cursors, setCursors] = useState<(number | undefined)[]>([undefined]);
  const before = cursors.at(-1);
  const { data, error, isPlaceholderData } = useQuery({
    queryKey: ["deliveries", status, before],
    queryFn: () =>
      settingsApi.deliveries({ status: status || undefined, before, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
    refetchInterval: 5_000,
  });
  const redeliver = useMutation({
    mutationFn: settingsApi.redeliver,
    onSuccess: () => qc.invalidateQueries({ queryKey: ["deliveries"] }),
  });
  const page = cursors.length;
  return (
    <Card aria-labelledby="deliveries-title">
      <CardHeader>
        <div className="grid gap-1">
          <CardTitle id="deliveries-title">Webhook deliveries</CardTitle>
          <CardDescription>
            Every event sent to a kickoff&apos;s webhook URLs, with retries. Secrets in URLs are
            hidden.
          </CardDescription>
        </div>
        <div className="flex items-center gap-2">
          <Label htmlFor="delivery-status">Show</Label>
          <Select
            id="delivery-status"
            value={status}
            className="w-44"
            onChange={(e) => {
              setStatus(e.target.value);
              setCursors([undefined]);
            }}
          >
            <option value="">All deliveries</option>
            <option value="pending">Retrying</option>
            <option value="failed">Failed</option>
            <option value="succeeded">Delivered</option>
          </Select>
        </div>
      </CardHeader>
      <CardContent className="grid gap-3 [&>*]:min-w-0">
        {error && (
          <Alert tone="danger" title="Deliveries could not be loaded">
            {error.message} They are retried every 5 seconds.
          </Alert>
        )}
        {redeliver.error && (
          <Alert tone="danger" title="Not redelivered">
            {redeliver.error.message}
          </Alert>
        )}
        {!data && !error && <Skeleton className="h-32" />}
        {data && data.deliveries.length === 0 && (
          <EmptyState
            icon={Send}
            title={status ? "No deliveries with this status" : "No deliveries yet"}
          >
            {status
              ? "Choose “All deliveries” to see the others."
              : "Pass webhook URLs in a kickoff's `webhooks` to receive events; each one is logged here."}
          </EmptyState>
        )}
        {data && data.deliveries.length > 0 && (
          <Table className="relative" aria-label="Webhook deliveries" aria-busy={isPlaceholderData}>
            <TableHeader>
              <TableRow>
                <TableHead scope="col">Time</TableHead>
                <TableHead scope="col">Event</TableHead>
                <TableHead scope="col">Run</TableHead>
                <TableHead scope="col">URL</TableHead>
                <TableHead scope="col">Status</TableHead>
                <TableHead scope="col" className="text-right">
                  Attempts
                </TableHead>
                <TableHead scope="col">Next retry</TableHead>
                <TableHead scope="col">
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.deliveries.map((d) => (
                <DeliveryRow
                  key={d.id}
                  d={d}
                  onRedeliver={() => redeliver.mutate(d.id)}
                  busy={redeliver.isPending && redeliver.variables === d.id}
                />
              ))}
            </TableBody>
          </Table>
        )}
        {data && (page > 1 || data.next_before !== null) && (
          <nav aria-label="Delivery pages" className="flex items-center justify-end gap-2">
            <span className="text-muted-foreground text-sm">Page {page}</span>
            <Button
              size="sm"
              disabled={page === 1}
              onClick={() => setCursors((c) => c.slice(0, -1))}
            >
              <ChevronLeft aria-hidden /> Newer
            </Button>
            <Button
              size="sm"
              disabled={data.next_before === null || isPlaceholderData}
              onClick={() => {
                const next = data.next_before;
                if (next !== null) setCursors((c) => [...c, next]);
              }}
            >
              Older <ChevronRight aria-hidden />
            </Button>
          </nav>
        )}
      </CardContent>
    </Card>
  );
}

function DeliveryRow({
  d,
  onRedeliver,
  busy,
}: {
  d: Delivery;
  onRedeliver: () => void;
  busy: boolean;
}) {
  const last = d.last_status_code ? `HTTP ${d.last_status_code}` : d.last_error;
  // A pending delivery never tried waits its turn (step events go out in order per endpoint).
  const queued = d.status === "pending" && d.attempts === 0;
  return (
    <TableRow>
      <TableCell>
        <RelativeTime iso={d.created_at} />
      </TableCell>
      <TableCell>
        <code className="font-mono text-xs">{d.kind}</code>
      </TableCell>
      <TableCell className="whitespace-nowrap">
        {d.crew ? (
          <Link
            href={`/crews/${encodeURIComponent(d.crew)}/runs/${d.execution_id}`}
            className="text-link hover:underline"
          >
            {d.crew} · <span className="font-mono text-xs">{shortId(d.execution_id)}</span>
          </Link>
        ) : (
          <span className="font-mono text-xs">{shortId(d.execution_id)}</span>
        )}
      </TableCell>
      <TableCell className="max-w-72">
        <span className="block truncate font-mono text-xs" title={d.url}>
          {d.url}
        </span>
      </TableCell>
      <TableCell>
        <div className="grid gap-0.5">
          <Badge tone={queued ? "neutral" : TONE[d.status]}>
            {queued ? "Queued" : LABEL[d.status]}
          </Badge>
          {last && (
            <span className="max-w-56 truncate text-muted-foreground text-xs" title={last}>
              {last}
            </span>
          )}
        </div>
      </TableCell>
      <TableCell className="text-right tabular-nums">{d.attempts}</TableCell>
      <TableCell>
        {d.next_attempt_at && !queued ? (
          <RelativeTime iso={d.next_attempt_at} />
        ) : (
          <span className="text-muted-foreground">—</span>
        )}
      </TableCell>
      <TableCell className="text-right">
        {(d.status === "failed" || d.status === "pending") && (
          <Button size="sm" variant="ghost" onClick={onRedeliver} disabled={busy}>
            {busy ? "Sending…" : "Redeliver"}
          </Button>
        )}
      </TableCell>
    </TableRow>
  );
}
