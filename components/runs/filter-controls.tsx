"use client";

import { Search, X } from "lucide-react";
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { Input, Label, Select } from "@/components/ui/input";
import { Options } from "@/components/ui/options";
import { dateBounds, type useDateRange } from "./use-date-range";
import type { useRunFilters } from "./use-run-filters";

type Filters = ReturnType<typeof useRunFilters>;

/** One of the filter bar's controls: a small label over it. */
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

/** A filter picked from a list; `any` are the options that filter nothing (or a few at once). */
export function SelectFilter({
  filters,
  name,
  label,
  any,
  options,
}: {
  filters: Filters;
  name: "crew" | "status" | "deployment";
  label: string;
  any: ReactNode;
  options: { value: string; label: string }[];
}) {
  const id = `filter-${name}`;
  return (
    <Control id={id} label={label} className="lg:w-40">
      <Select
        id={id}
        value={filters.get(name)}
        onChange={(e) => filters.set({ [name]: e.target.value })}
      >
        {any}
        <Options options={options} />
      </Select>
    </Control>
  );
}

/** A typed filter, written to the URL a moment after typing stops; `search` adds the magnifier. */
export function TextFilter({
  id,
  label,
  className,
  value,
  set,
  placeholder,
  search,
}: {
  id: string;
  label: string;
  className: string;
  value: string;
  set: (value: string) => void;
  placeholder: string;
  search?: boolean;
}) {
  const input = (
    <Input
      id={id}
      type={search ? "search" : undefined}
      value={value}
      onChange={(e) => set(e.target.value)}
      placeholder={placeholder}
      className={search ? "pl-8" : undefined}
      autoComplete={search ? undefined : "off"}
    />
  );
  return (
    <Control id={id} label={label} className={className}>
      {search ? (
        <div className="relative">
          <Search
            aria-hidden
            className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
          />
          {input}
        </div>
      ) : (
        input
      )}
    </Control>
  );
}

/** From and To: each bounds the other's picker; a reversed range is said under them. */
export function DateFilters({ range }: { range: ReturnType<typeof useDateRange> }) {
  return (["from", "to"] as const).map((end) => (
    <Control
      key={end}
      id={`filter-${end}`}
      label={end === "from" ? "From" : "To"}
      className="lg:w-36"
    >
      <Input
        id={`filter-${end}`}
        type="date"
        value={range[end]}
        {...dateBounds(end, range)}
        onChange={(e) => range.set(end, e.target.value)}
        aria-invalid={range.error ? true : undefined}
        aria-describedby={range.error ? "filter-range-error" : undefined}
      />
    </Control>
  ));
}

/** The tag filters, each with its remove button. */
export function TagChips({ tags, remove }: { tags: string[]; remove: (tag: string) => void }) {
  if (tags.length === 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-1.5">
      <span className="text-muted-foreground text-xs">Tags</span>
      {tags.map((tag) => (
        <Badge key={tag} tone="info" className="pr-0.5">
          {tag}
          <button
            type="button"
            aria-label={`Remove tag filter ${tag}`}
            onClick={() => remove(tag)}
            className="grid size-4 cursor-pointer place-items-center rounded-full hover:bg-card/60"
          >
            <X aria-hidden />
          </button>
        </Badge>
      ))}
    </div>
  );
}
