import type { AssigneeOptions } from "@/lib/contract/reviews";

type Option = { value: string; label: string; detail: string };
export type Group = { name: string; options: Option[] };

// How many people who may review a role or team reaches: "no one" warns before it is chosen.
export const reach = (n: number) => (n === 0 ? "no one" : n === 1 ? "1 person" : `${n} people`);

export function groupsOf(data: AssigneeOptions): Group[] {
  return [
    {
      name: "People",
      options: data.people.map((p) => ({
        value: p.email,
        label: p.name ?? p.email,
        detail: p.name ? `${p.email} · ${p.role}` : p.role,
      })),
    },
    {
      name: "Roles",
      options: data.roles.map((r) => ({
        value: r.name,
        label: r.name,
        detail: reach(r.reviewers),
      })),
    },
    {
      name: "Teams",
      options: data.teams.map((t) => ({
        value: t.name,
        label: t.name,
        detail: reach(t.reviewers),
      })),
    },
  ];
}

/** The groups with only the options that match the search; empty groups go. */
export function matchingGroups(groups: Group[], needle: string): Group[] {
  return groups
    .map((g) => ({
      ...g,
      options: g.options.filter(
        (o) => !needle || `${o.value} ${o.label}`.toLowerCase().includes(needle),
      ),
    }))
    .filter((g) => g.options.length);
}

/** The chosen ones with `v` added, or taken out when it was there. */
export function toggled(value: string[], v: string): string[] {
  return value.includes(v) ? value.filter((x) => x !== v) : [...value, v];
}
