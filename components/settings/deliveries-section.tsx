"use client";

import { useCrewName } from "@/components/crew-names";
import { deliveryColumns } from "./delivery-columns";
import { DeliveryPager } from "./delivery-pager";
import { hasPages } from "./delivery-pages";
import { DeliveryStatusFilter } from "./delivery-status-filter";
import { DataTable } from "./kit/data-table";
import { Loading, Problem, SettingsSection } from "./kit/section";
import { NoDeliveries } from "./no-deliveries";
import { useDeliveries } from "./use-deliveries";

/** Webhook deliveries, newest first, a page at a time; failed ones can be sent again. */
export function DeliveriesSection() {
  const crewName = useCrewName();
  const { query, status, filter, page, redeliver, toNewer, toOlder } = useDeliveries();
  const { data, error, isPlaceholderData } = query;
  return (
    <SettingsSection
      id="deliveries"
      title="Webhook deliveries"
      description="Every event sent to a kickoff's webhook URLs, with retries. Secrets in URLs are hidden."
      gap="gap-3"
      actions={<DeliveryStatusFilter status={status} onChange={filter} />}
    >
      <Problem errors={[error]} title="Deliveries could not be loaded">
        {" "}
        They are retried every 5 seconds.
      </Problem>
      <Problem errors={[redeliver.error]} title="Not redelivered" />
      <Loading query={query} className="h-32" />
      {data && data.deliveries.length === 0 && <NoDeliveries status={status} />}
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
      {data && hasPages(page, data.next_before) && (
        <DeliveryPager
          page={page}
          next={data.next_before}
          loading={isPlaceholderData}
          onNewer={toNewer}
          onOlder={() => toOlder(data.next_before)}
        />
      )}
    </SettingsSection>
  );
}
