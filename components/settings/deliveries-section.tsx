"use client";

import { useMutation } from "@tanstack/react-query";
import { ChevronLeft, ChevronRight, Send } from "lucide-react";
import { useState } from "react";
import { useCrewName } from "@/components/crew-names";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Label, Select } from "@/components/ui/input";
import { settingsApi } from "@/lib/api/client";
import { deliveryColumns } from "./delivery-columns";
import { DataTable } from "./kit/data-table";
import { Loading, Problem, SettingsSection } from "./kit/section";
import { useSettingsQuery } from "./kit/use-settings-query";

const PAGE_SIZE = 20;

/** Webhook deliveries, newest first, a page at a time; failed ones can be sent again. */
export function DeliveriesSection() {
  const crewName = useCrewName();
  const [status, setStatus] = useState("");
  // Cursors of the pages seen so far: [undefined] is the newest page.
  const [cursors, setCursors] = useState<(number | undefined)[]>([undefined]);
  const before = cursors.at(-1);
  const { query, refresh } = useSettingsQuery(
    ["deliveries", status, before],
    () => settingsApi.deliveries({ status: status || undefined, before, limit: PAGE_SIZE }),
    { keepPrevious: true, refetchInterval: 5_000 },
  );
  const { data, error, isPlaceholderData } = query;
  const redeliver = useMutation({ mutationFn: settingsApi.redeliver, onSuccess: refresh });
  const page = cursors.length;
  return (
    <SettingsSection
      id="deliveries"
      title="Webhook deliveries"
      description="Every event sent to a kickoff's webhook URLs, with retries. Secrets in URLs are hidden."
      gap="gap-3"
      actions={
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
      }
    >
      <Problem errors={[error]} title="Deliveries could not be loaded">
        {" "}
        They are retried every 5 seconds.
      </Problem>
      <Problem errors={[redeliver.error]} title="Not redelivered" />
      <Loading query={query} className="h-32" />
      {data && data.deliveries.length === 0 && (
        <EmptyState
          icon={Send}
          title={status ? "No deliveries with this status" : "No deliveries yet"}
        >
          {status ? (
            "Choose “All deliveries” to see the others."
          ) : (
            <>
              Pass webhook URLs in a kickoff's <code className="font-mono text-xs">webhooks</code>{" "}
              to receive events; each one is logged here.
            </>
          )}
        </EmptyState>
      )}
      {data && data.deliveries.length > 0 && (
        <DataTable
          label="Webhook deliveries"
          busy={isPlaceholderData}
          columns={deliveryColumns(
            (id) => redeliver.mutate(id),
            redeliver.isPending ? redeliver.variables : undefined,
            crewName,
          )}
          rows={data.deliveries}
          rowKey={(d) => d.id}
        />
      )}
      {data && (page > 1 || data.next_before !== null) && (
        <nav aria-label="Delivery pages" className="flex items-center justify-end gap-2">
          <span className="text-muted-foreground text-sm">Page {page}</span>
          <Button size="sm" disabled={page === 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
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
    </SettingsSection>
  );
}
