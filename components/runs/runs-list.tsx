"use client";

import dynamic from "next/dynamic";
import { Alert } from "@/components/ui/alert";
import { FilterBar } from "./filter-bar";
import { RunsCardList, RunsTableView } from "./run-rows";
import { LoadingRuns, NoMatch, NoRunsYet, Pager } from "./runs-list-parts";
import { useRunFilters } from "./use-run-filters";
import { useRunSelection, useRunsPage } from "./use-runs-page";
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
  const { api, data, error, isPlaceholderData, runs, hidden, noRunsAtAll } = useRunsPage(filters);
  const { selected, chosen, toggle, toggleAll, clear } = useRunSelection(api, runs);

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
      {chosen.length > 0 && <BulkActions runs={chosen} clear={clear} />}
      {!data && !error && <LoadingRuns />}
      {data && runs.length === 0 && !noRunsAtAll && (
        <NoMatch hidden={hidden.data} clear={() => filters.apply("")} />
      )}
      {noRunsAtAll && (
        <NoRunsYet>
          Each run of a crew shows up here, with its status, duration, tokens and cost.
        </NoRunsYet>
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
      {data && runs.length > 0 && <Pager shown={runs.length} page={filters.page} data={data} />}
    </div>
  );
}
