"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { runsApi } from "@/lib/api/client";
import type { RunRow } from "./model";
import { apiQuery, type useRunFilters } from "./use-run-filters";

/** The page of runs the URL's filters name, kept live; and, when it is empty, whether any exist. */
export function useRunsPage(filters: ReturnType<typeof useRunFilters>) {
  const api = apiQuery(new URLSearchParams(filters.params.toString()));
  const { data, error, isPlaceholderData } = useQuery({
    queryKey: ["runs", "list", api],
    queryFn: () => runsApi.list(new URLSearchParams(api)),
    refetchInterval: 5_000,
    placeholderData: keepPreviousData,
  });
  const runs: RunRow[] = data?.runs ?? [];
  // An empty filtered page: are the filters hiding runs, or are there none at all?
  const hidden = useQuery({
    queryKey: ["runs", "list", "per_page=1"],
    queryFn: () => runsApi.list({ per_page: "1" }),
    enabled: Boolean(data && runs.length === 0 && filters.filtered),
  });
  const noRunsAtAll = data && runs.length === 0 && (!filters.filtered || hidden.data?.total === 0);
  return { api, data, error, isPlaceholderData, runs, hidden, noRunsAtAll };
}

/** The set with `id` added, or taken out when it was there. */
export function toggled(set: Set<string>, id: string) {
  const next = new Set(set);
  if (!next.delete(id)) next.add(id);
  return next;
}

/** Selection is of runs on screen: a new filter or page (`key`) starts afresh. */
export function useRunSelection(key: string, runs: RunRow[]) {
  const [selection, setSelection] = useState({ key, ids: new Set<string>() });
  const selected = selection.key === key ? selection.ids : new Set<string>();
  const setSelected = (update: Set<string> | ((s: Set<string>) => Set<string>)) =>
    setSelection((cur) => {
      const ids = cur.key === key ? cur.ids : new Set<string>();
      return { key, ids: typeof update === "function" ? update(ids) : update };
    });
  const chosen = useMemo(() => runs.filter((r) => selected.has(r.id)), [runs, selected]);
  return {
    selected,
    chosen,
    toggle: (id: string) => setSelected((s) => toggled(s, id)),
    toggleAll: (on: boolean) => setSelected(on ? new Set(runs.map((r) => r.id)) : new Set()),
    clear: () => setSelected(new Set()),
  };
}
