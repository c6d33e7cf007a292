import { TrackerError } from "../errors";
import { validateFormula } from "../filter";
import type { ActionParams } from "../schemas";
import { toLinearFilter } from "./filter";
import type { Gql } from "./graphql";
import { type LinearTeam, TEAM } from "./shapes";

// Linear's teams: the one an issue or project names, checked to exist, and the team search.

export async function teamOf(gql: Gql, id: string): Promise<LinearTeam> {
  const { team } = await gql<{ team: LinearTeam | null }>(
    `query TeamContext($id: String!) { team(id: $id) { ${TEAM} } }`,
    { id },
  );
  if (!team)
    throw new TrackerError(
      "not_found",
      `No team with ID ${id}; search_teams lists the teams and their IDs.`,
    );
  return team;
}

export async function searchTeams(gql: Gql, p: ActionParams<"search_teams">) {
  const groups = p.teamFilterFormula
    ? validateFormula(p.teamFilterFormula, { id: "string", name: "string" }, "teamFilterFormula")
    : undefined;
  const { teams } = await gql<{ teams: { nodes: LinearTeam[] } }>(
    `query Teams($filter: TeamFilter) { teams(filter: $filter) { nodes { ${TEAM} } } }`,
    {
      filter: groups ? toLinearFilter(groups) : undefined,
    },
  );
  return {
    teams: teams.nodes.map(({ id, key, name, states, labels }) => ({
      id,
      key,
      name,
      states: states.nodes,
      labels: labels.nodes,
    })),
  };
}
