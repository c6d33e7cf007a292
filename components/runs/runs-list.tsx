"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { ChevronLeft, ChevronRight, ListFilter, Play } from "lucide-react";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useMemo, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { runsApi } from "@/lib/api/client";
import { formatCount } from "@/lib/format/numbers";
import { FilterBar } from "./filter-bar";
import type { RunRow } from "./model";
import { RunsCardList, RunsTableView } from "./run-rows";
import { apiQuery, useRunFilters } from "./use-run-filters";
import { ViewsMenu } from "./views-menu";

type Option = { slug: string; name: string };

// The bulk actions bring Radix's dialog: loaded once something is selected, not with the list.
const BulkActions = dynamic(() => import("./bulk-actions").then((m) => m.BulkActions), {
  ssr: false,
});

/** Every run the person may see: filtered in the URL, paged on the server, kept live. */
export function RunsList({
  crews,
  deployments,
  canAct,
}: {
  crews: Option[];
  deployments: Option[];
  /** May re-run, stop and tag: shows the selection boxes (a viewer only reads). */
  canAct: boolean;
}) {
  const filters = useRunFilters();
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

  // Selection is of runs on screen: a new filter or page starts afresh.
  const [selection, setSelection] = useState({ key: api, ids: new Set<string>() });
  const selected = selection.key === api ? selection.ids : new Set<string>();
  const setSelected = (update: Set<string> | ((s: Set<string>) => Set<string>)) =>
    setSelection((cur) => {
      const ids = cur.key === api ? cur.ids : new Set<string>();
      return { key: api, ids: typeof update === "function" ? update(ids) : update };
    });
  const chosen = useMemo(() => runs.filter((r) => selected.has(r.id)), [runs, selected]);
  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const toggleAll = (on: boolean) => setSelected(on ? new Set(runs.map((r) => r.id)) : new Set());

  return (
    <div className="grid gap-4">
      <FilterBar
        filters={filters}
        crews={crews}
        deployments={deployments}
        views={<ViewsMenu query={filters.query} apply={filters.apply} />}
      />
      {error && (
        <Alert tone="danger" title="The runs could not be loaded">
          {error.message} It is retried every few seconds; check the filters or reload the page.
        </Alert>
      )}
      {chosen.length > 0 && <BulkActions runs={chosen} clear={() => setSelected(new Set())} />}
      {!data && !error && (
        <div className="grid gap-2" aria-busy="true">
          <span className="sr-only">Loading runs…</span>
          {[0, 1, 2, 3, 4].map((i) => (
            <Skeleton key={i} className="h-11" />
          ))}
        </div>
      )}
      {data && runs.length === 0 && !noRunsAtAll && (
        <EmptyState
          icon={ListFilter}
          title="No runs match these filters"
          action={<Button onClick={() => filters.apply("")}>Clear filters</Button>}
        >
          {hidden.data
            ? `${formatCount(hidden.data.total)}${hidden.data.total_capped ? "+" : ""} runs exist; these filters hide every one.`
            : "These filters hide every run."}{" "}
          Widen the dates, pick another status, or clear them.
        </EmptyState>
      )}
      {noRunsAtAll && (
        <EmptyState
          icon={Play}
          title="No runs yet"
          action={
            <Button asChild variant="primary">
              <Link href="/crews">Start a run from a crew</Link>
            </Button>
          }
        >
          Each run of a crew shows up here, with its status, duration, tokens and cost.
        </EmptyState>
      )}
      {runs.length > 0 && (
        <div
          className="grid gap-3 transition-opacity data-[stale=true]:opacity-60"
          data-stale={isPlaceholderData}
          aria-busy={isPlaceholderData}
        >
          <div className="hidden overflow-hidden rounded-xl border bg-card shadow-xs md:block">
            <RunsTableView
              runs={runs}
              selected={selected}
              toggle={toggle}
              toggleAll={toggleAll}
              onTag={filters.addMeta}
              selectable={canAct}
            />
          </div>
          <div className="md:hidden">
            <RunsCardList runs={runs} selected={selected} toggle={toggle} selectable={canAct} />
          </div>
        </div>
      )}
      {data && runs.length > 0 && (
        <nav aria-label="Pages" className="flex items-center justify-between gap-3">
          <p className="text-muted-foreground text-sm tabular-nums">
            {formatCount(runs.length)} of {formatCount(data.total)}
            {data.total_capped ? "+" : ""} {data.total === 1 ? "run" : "runs"}
          </p>
          <div className="flex gap-2">
            <Button
              size="sm"
              disabled={!data.prev_cursor}
              onClick={() => data.prev_cursor && filters.page(data.prev_cursor)}
            >
              <ChevronLeft aria-hidden />
              Newer
            </Button>
            <Button
              size="sm"
              disabled={!data.next_cursor}
              onClick={() => data.next_cursor && filters.page(data.next_cursor)}
            >
              Older
              <ChevronRight aria-hidden />
            </Button>
          </div>
        </nav>
      )}
    </div>
  );
}
