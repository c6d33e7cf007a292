"use client";

import { X } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { RUN_STATUS_OPTIONS, statusLabel } from "@/lib/format/status";
import { DateFilters, SelectFilter, TagChips, TextFilter } from "./filter-controls";
import { useDateRange } from "./use-date-range";
import { useDebouncedParam } from "./use-debounced-param";
import type { useRunFilters } from "./use-run-filters";

type Filters = ReturnType<typeof useRunFilters>;
type Option = { slug: string; name: string };

const asOptions = (list: Option[]) => list.map((o) => ({ value: o.slug, label: o.name }));
const STATUSES = RUN_STATUS_OPTIONS.map((s) => ({ value: s, label: statusLabel(s).label }));

/** The runs list's filters, one row of same-height controls; every change goes to the URL. */
export function FilterBar({
  filters,
  crews,
  deployments,
  views,
}: {
  filters: Filters;
  crews: Option[];
  deployments: Option[];
  views: ReactNode;
}) {
  const [q, setQ] = useDebouncedParam(filters.get("q"), (v) => filters.set({ q: v }));
  const [by, setBy] = useDebouncedParam(filters.get("started_by"), (v) =>
    filters.set({ started_by: v }),
  );
  const range = useDateRange(filters);
  const clear = () => {
    setQ("");
    setBy("");
    range.clear();
    filters.apply("");
  };

  return (
    <search aria-label="Filter runs" className="grid gap-3">
      <div className="flex flex-wrap items-end gap-3">
        <TextFilter
          id="filter-q"
          label="Search"
          className="min-w-0 flex-1 basis-full sm:basis-auto sm:max-w-md"
          value={q}
          set={setQ}
          placeholder="Id, crew, input or error text"
          search
        />
        <div className="flex items-center gap-2 sm:ml-auto">
          {views}
          <Button variant="ghost" disabled={!filters.filtered} onClick={clear}>
            <X aria-hidden />
            Clear filters
          </Button>
        </div>
      </div>
      <div className="grid grid-cols-2 items-end gap-3 sm:grid-cols-3 lg:flex lg:flex-wrap">
        <PickFilters filters={filters} crews={crews} deployments={deployments} />
        <TextFilter
          id="filter-started-by"
          label="Started by"
          className="col-span-2 sm:col-span-1 lg:w-44"
          value={by}
          set={setBy}
          placeholder="me or an e-mail"
        />
        <DateFilters range={range} />
      </div>
      {range.error && (
        <p id="filter-range-error" role="alert" className="text-tone-danger-foreground text-xs">
          {range.error}
        </p>
      )}
      <TagChips tags={filters.meta} remove={filters.removeMeta} />
    </search>
  );
}

/** The filters picked from a list: crew, status and, where there are any, deployment. */
function PickFilters({
  filters,
  crews,
  deployments,
}: {
  filters: Filters;
  crews: Option[];
  deployments: Option[];
}) {
  return (
    <>
      <SelectFilter
        filters={filters}
        name="crew"
        label="Crew"
        any={<option value="">All crews</option>}
        options={asOptions(crews)}
      />
      <SelectFilter
        filters={filters}
        name="status"
        label="Status"
        any={<option value="">Any status</option>}
        options={STATUSES}
      />
      {deployments.length > 0 && (
        <SelectFilter
          filters={filters}
          name="deployment"
          label="Deployment"
          any={
            <>
              <option value="">All</option>
              <option value="local">This Crewdeck</option>
            </>
          }
          options={asOptions(deployments)}
        />
      )}
    </>
  );
}
