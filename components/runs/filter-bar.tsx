"use client";

import { Search, X } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Input, Label, Select } from "@/components/ui/input";
import { RUN_STATUS_OPTIONS, statusLabel } from "@/lib/format/status";
import { useDebouncedParam } from "./use-debounced-param";
import type { useRunFilters } from "./use-run-filters";

type Filters = ReturnType<typeof useRunFilters>;
type Option = { slug: string; name: string };

function Control({
  id,
  label,
  className,
  children,
}: {
  id: string;
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn("grid min-w-0 gap-1.5", className)}>
      <Label htmlFor={id} className="text-muted-foreground text-xs">
        {label}
      </Label>
      {children}
    </div>
  );
}

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

  // The date range is applied only when it makes sense: a from after to is said, not sent.
  const urlFrom = filters.get("from");
  const urlTo = filters.get("to");
  const [from, setFrom] = useState(urlFrom);
  const [to, setTo] = useState(urlTo);
  useEffect(() => setFrom(urlFrom), [urlFrom]);
  useEffect(() => setTo(urlTo), [urlTo]);
  const rangeError = from && to && from > to ? "“From” is after “To”: pick an earlier start." : "";
  const changeDate = (nextFrom: string, nextTo: string) => {
    setFrom(nextFrom);
    setTo(nextTo);
    if (nextFrom && nextTo && nextFrom > nextTo) return;
    filters.set({ from: nextFrom, to: nextTo });
  };

  return (
    <search aria-label="Filter runs" className="grid gap-3">
      <div className="flex flex-wrap items-end gap-3">
        <Control
          id="filter-q"
          label="Search"
          className="min-w-0 flex-1 basis-full sm:basis-auto sm:max-w-md"
        >
          <div className="relative">
            <Search
              aria-hidden
              className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
            />
            <Input
              id="filter-q"
              type="search"
              value={q}
              onChange={(e) => setQ(e.target.value)}
              placeholder="Id, crew, input or error text"
              className="pl-8"
            />
          </div>
        </Control>
        <div className="flex items-center gap-2 sm:ml-auto">
          {views}
          <Button
            variant="ghost"
            disabled={!filters.filtered}
            onClick={() => {
              setQ("");
              setBy("");
              setFrom("");
              setTo("");
              filters.apply("");
            }}
          >
            <X aria-hidden />
            Clear filters
          </Button>
        </div>
      </div>
      <div className="grid grid-cols-2 items-end gap-3 sm:grid-cols-3 lg:flex lg:flex-wrap">
        <Control id="filter-crew" label="Crew" className="lg:w-40">
          <Select
            id="filter-crew"
            value={filters.get("crew")}
            onChange={(e) => filters.set({ crew: e.target.value })}
          >
            <option value="">All crews</option>
            {crews.map((c) => (
              <option key={c.slug} value={c.slug}>
                {c.name}
              </option>
            ))}
          </Select>
        </Control>
        <Control id="filter-status" label="Status" className="lg:w-40">
          <Select
            id="filter-status"
            value={filters.get("status")}
            onChange={(e) => filters.set({ status: e.target.value })}
          >
            <option value="">Any status</option>
            {RUN_STATUS_OPTIONS.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s).label}
              </option>
            ))}
          </Select>
        </Control>
        {deployments.length > 0 && (
          <Control id="filter-deployment" label="Deployment" className="lg:w-40">
            <Select
              id="filter-deployment"
              value={filters.get("deployment")}
              onChange={(e) => filters.set({ deployment: e.target.value })}
            >
              <option value="">All</option>
              <option value="local">This Crewdeck</option>
              {deployments.map((d) => (
                <option key={d.slug} value={d.slug}>
                  {d.name}
                </option>
              ))}
            </Select>
          </Control>
        )}
        <Control
          id="filter-started-by"
          label="Started by"
          className="col-span-2 sm:col-span-1 lg:w-44"
        >
          <Input
            id="filter-started-by"
            value={by}
            onChange={(e) => setBy(e.target.value)}
            placeholder="me or an e-mail"
            autoComplete="off"
          />
        </Control>
        <Control id="filter-from" label="From" className="lg:w-36">
          <Input
            id="filter-from"
            type="date"
            value={from}
            max={to || undefined}
            onChange={(e) => changeDate(e.target.value, to)}
            aria-invalid={rangeError ? true : undefined}
            aria-describedby={rangeError ? "filter-range-error" : undefined}
          />
        </Control>
        <Control id="filter-to" label="To" className="lg:w-36">
          <Input
            id="filter-to"
            type="date"
            value={to}
            min={from || undefined}
            onChange={(e) => changeDate(from, e.target.value)}
            aria-invalid={rangeError ? true : undefined}
            aria-describedby={rangeError ? "filter-range-error" : undefined}
          />
        </Control>
      </div>
      {rangeError && (
        <p id="filter-range-error" role="alert" className="text-tone-danger-foreground text-xs">
          {rangeError}
        </p>
      )}
      {filters.meta.length > 0 && (
        <div className="flex flex-wrap items-center gap-1.5">
          <span className="text-muted-foreground text-xs">Tags</span>
          {filters.meta.map((tag) => (
            <Badge key={tag} tone="info" className="pr-0.5">
              {tag}
              <button
                type="button"
                aria-label={`Remove tag filter ${tag}`}
                onClick={() => filters.removeMeta(tag)}
                className="grid size-4 cursor-pointer place-items-center rounded-full hover:bg-card/60"
              >
                <X aria-hidden />
              </button>
            </Badge>
          ))}
        </div>
      )}
    </search>
  );
}
