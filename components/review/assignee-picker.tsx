"use client";

import { useQuery } from "@tanstack/react-query";
import { X } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Checkbox, Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { reviewsApi } from "@/lib/api/client";
import { type Group, groupsOf, matchingGroups, toggled } from "./assignee-options";

/**
 * Picks whom a review goes to: people who may review, roles and teams (each with how many
 * reviewers it reaches), searchable, the chosen ones as removable chips. Nothing is typed by hand,
 * so nothing can name someone who is not here.
 */
export function AssigneePicker({
  value,
  onChange,
  labelledBy,
  describedBy,
  invalid,
}: {
  value: string[];
  onChange: (value: string[]) => void;
  labelledBy: string;
  describedBy?: string;
  invalid?: boolean;
}) {
  const searchId = useId();
  const [search, setSearch] = useState("");
  const { data, error, isPending } = useQuery({
    queryKey: ["review-assignees"],
    queryFn: reviewsApi.assignees,
    staleTime: 60_000,
  });
  const toggle = (v: string) => onChange(toggled(value, v));
  const needle = search.trim().toLowerCase();
  const groups = data ? matchingGroups(groupsOf(data), needle) : [];

  return (
    <div className="grid gap-2">
      {value.length > 0 && <Chosen value={value} onRemove={toggle} />}
      <label htmlFor={searchId} className="sr-only">
        Search people, roles and teams
      </label>
      <Input
        id={searchId}
        type="search"
        value={search}
        placeholder="Search people, roles and teams"
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        onChange={(e) => setSearch(e.target.value)}
      />
      <fieldset
        aria-labelledby={labelledBy}
        className="m-0 grid max-h-64 min-w-0 gap-3 overflow-y-auto rounded-md border p-2"
      >
        {isPending ? (
          <div className="grid gap-2" aria-busy="true">
            <Skeleton className="h-5 w-2/3" />
            <Skeleton className="h-5 w-1/2" />
            <Skeleton className="h-5 w-3/5" />
          </div>
        ) : error ? (
          <p className="m-0 text-sm text-tone-danger-foreground">
            Could not load who may review: {error.message}
          </p>
        ) : groups.length === 0 ? (
          <p className="m-0 text-muted-foreground text-sm">
            {needle ? `No person, role or team matches “${search.trim()}”.` : "No one may review."}
          </p>
        ) : (
          <OptionGroups groups={groups} idPrefix={searchId} value={value} onToggle={toggle} />
        )}
      </fieldset>
    </div>
  );
}

/** The chosen ones as chips, each with its own Remove. */
function Chosen({ value, onRemove }: { value: string[]; onRemove: (v: string) => void }) {
  return (
    <ul aria-label="Chosen" className="m-0 flex list-none flex-wrap gap-1.5 p-0">
      {value.map((v) => (
        <li
          key={v}
          className="inline-flex max-w-full items-center gap-1 rounded-md border bg-muted py-0.5 pr-0.5 pl-2 text-sm"
        >
          <span className="min-w-0 truncate">{v}</span>
          <Button
            type="button"
            size="icon"
            variant="ghost"
            className="size-6"
            aria-label={`Remove ${v}`}
            onClick={() => onRemove(v)}
          >
            <X aria-hidden />
          </Button>
        </li>
      ))}
    </ul>
  );
}

function OptionGroups({
  groups,
  idPrefix,
  value,
  onToggle,
}: {
  groups: Group[];
  idPrefix: string;
  value: string[];
  onToggle: (v: string) => void;
}) {
  return groups.map((g) => (
    <fieldset key={g.name} className="m-0 grid gap-0.5 border-0 p-0">
      <legend className="mb-1 font-medium text-muted-foreground text-xs">{g.name}</legend>
      {g.options.map((o) => (
        <label
          key={o.value}
          htmlFor={`${idPrefix}-${o.value}`}
          className="flex min-w-0 cursor-pointer items-center gap-2 rounded-md px-1.5 py-1 text-sm hover:bg-muted"
        >
          <Checkbox
            id={`${idPrefix}-${o.value}`}
            checked={value.includes(o.value)}
            onChange={() => onToggle(o.value)}
          />
          <span className="min-w-0 truncate">{o.label}</span>
          <span className="ml-auto min-w-0 max-w-[60%] truncate text-right text-muted-foreground text-xs">
            {o.detail}
          </span>
        </label>
      ))}
    </fieldset>
  ));
}
