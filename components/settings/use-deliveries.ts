import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { settingsApi } from "@/lib/api/client";
import { type Cursors, FIRST_PAGE, newer, older } from "./delivery-pages";
import { useSettingsQuery } from "./kit/use-settings-query";

const PAGE_SIZE = 20;

/** A page of deliveries with one status, refreshed every 5 s; a failed one sent again. */
export function useDeliveries() {
  const [status, setStatus] = useState("");
  const [cursors, setCursors] = useState<Cursors>(FIRST_PAGE);
  const before = cursors.at(-1);
  const { query, refresh } = useSettingsQuery(
    ["deliveries", status, before],
    () => settingsApi.deliveries({ status: status || undefined, before, limit: PAGE_SIZE }),
    { keepPrevious: true, refetchInterval: 5_000 },
  );
  const redeliver = useMutation({ mutationFn: settingsApi.redeliver, onSuccess: refresh });
  // Another status starts again from the newest page.
  const filter = (value: string) => {
    setStatus(value);
    setCursors(FIRST_PAGE);
  };
  return {
    query,
    status,
    filter,
    page: cursors.length,
    redeliver,
    toNewer: () => setCursors(newer),
    toOlder: (next: number | null) => setCursors((c) => older(c, next)),
  };
}
