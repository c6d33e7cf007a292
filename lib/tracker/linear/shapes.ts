// What the Linear actions ask of Linear's GraphQL API, and the views they answer with. Our own
// queries (not the SDK's lazy models) fetch exactly what an action returns in one round trip.
export const ISSUE = `id identifier number title description priority dueDate createdAt updatedAt archivedAt trashed
  parent { id } cycle { id } team { id key name } state { id name type } assignee { id name } project { id name }
  labels { nodes { id name } }`;
export const PROJECT =
  "id name description state createdAt updatedAt lead { id } teams { nodes { id key name } }";
export const TEAM =
  "id key name states { nodes { id name type } } labels { nodes { id name } } cycles { nodes { id } }";

export type Node = { id: string; name: string };
export type LinearIssue = {
  id: string;
  identifier: string;
  number: number;
  title: string;
  description: string | null;
  priority: number;
  dueDate: string | null;
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
  trashed: boolean | null;
  parent: { id: string } | null;
  cycle: { id: string } | null;
  team: { id: string; key: string; name: string };
  state: { id: string; name: string; type: string };
  assignee: Node | null;
  project: Node | null;
  labels: { nodes: Node[] };
};
export type LinearTeam = {
  id: string;
  key: string;
  name: string;
  states: { nodes: { id: string; name: string; type: string }[] };
  labels: { nodes: Node[] };
  cycles: { nodes: { id: string }[] };
};
export type LinearProject = {
  id: string;
  name: string;
  description: string | null;
  state: string;
  createdAt: string;
  updatedAt: string;
  lead: { id: string } | null;
  teams: { nodes: { id: string; key: string; name: string }[] };
};

export function issueView(i: LinearIssue) {
  const { parent, cycle, labels, trashed: _t, ...rest } = i;
  return {
    ...rest,
    parentId: parent?.id ?? null,
    cycleId: cycle?.id ?? null,
    labels: labels.nodes,
  };
}

export function projectView(p: LinearProject) {
  const { lead, teams, ...rest } = p;
  return { ...rest, leadId: lead?.id ?? null, teams: teams.nodes };
}
