/** Which reviews the inbox lists: those assigned to me, to my teams, or all of them. */
export const SCOPES = [
  { id: "mine", label: "Assigned to me" },
  { id: "team", label: "My team" },
  { id: "all", label: "All" },
] as const;
export type Scope = (typeof SCOPES)[number]["id"];

export const isScope = (s: string | null): s is Scope => SCOPES.some((x) => x.id === s);
