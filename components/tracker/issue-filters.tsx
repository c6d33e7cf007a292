import Link from "next/link";
import type { ReactNode } from "react";
import { LiveFilterForm } from "@/components/tracker/live-filter-form";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input, Label, Select } from "@/components/ui/input";
import type { IssueSearch } from "./issue-filter";

function FilterField({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  );
}

/** The issues page's filters: a form that applies itself as it is typed in (once hydrated). */
export function IssueFilters({
  search,
  team,
  filtered,
}: {
  search: IssueSearch;
  team: string | undefined;
  filtered: boolean;
}) {
  return (
    <Card className="mb-4 p-4">
      <LiveFilterForm
        label="Filter issues"
        className="grid grid-cols-2 items-end gap-3 md:grid-cols-4"
      >
        <input type="hidden" name="team" value={team ?? ""} />
        <div className="col-span-2">
          <FilterField id="f-q" label="Search">
            <Input
              id="f-q"
              name="q"
              type="search"
              defaultValue={search.q}
              placeholder="Title or description"
            />
          </FilterField>
        </div>
        <div className="col-span-2">
          <FilterField id="f-title" label="Title contains">
            <Input id="f-title" name="title" defaultValue={search.title} />
          </FilterField>
        </div>
        <FilterField id="f-min" label="Number from">
          <Input id="f-min" name="min" inputMode="numeric" defaultValue={search.min} />
        </FilterField>
        <FilterField id="f-max" label="Number to">
          <Input id="f-max" name="max" inputMode="numeric" defaultValue={search.max} />
        </FilterField>
        <FilterField id="f-project" label="Project">
          <Input id="f-project" name="project" defaultValue={search.project} />
        </FilterField>
        <FilterField id="f-after" label="Created after">
          <Input id="f-after" name="after" type="date" defaultValue={search.after} />
        </FilterField>
        <FilterField id="f-archived" label="Show">
          <Select id="f-archived" name="archived" defaultValue={search.archived ?? ""}>
            <option value="">Open</option>
            <option value="1">Archived</option>
          </Select>
        </FilterField>
        <div className="flex gap-2">
          <Button type="submit" variant="primary" className="group-data-[live]:hidden">
            Filter
          </Button>
          {filtered && (
            <Button asChild variant="ghost">
              <Link href={`/tracker?team=${team ?? ""}`}>Clear</Link>
            </Button>
          )}
        </div>
      </LiveFilterForm>
    </Card>
  );
}
