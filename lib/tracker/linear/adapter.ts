import {
  AuthenticationLinearError,
  ForbiddenLinearError,
  InvalidInputLinearError,
  LinearClient,
  LinearError,
  parseLinearError,
  RatelimitedLinearError,
} from "@linear/sdk";
import { TrackerError } from "../errors";
import { validateFormula } from "../filter";
import type { ActionName, ActionParams } from "../schemas";
import {
  assertUsableParent,
  compact,
  identifier,
  nonEmpty,
  parseIssueFields,
  parseLead,
  parseProjectFields,
  teamIdList,
  uuid,
} from "../validate";
import { toLinearFilter } from "./filter";

// The 13 actions against Linear's GraphQL API through the official SDK. Our own queries (not the
// SDK's lazy models) fetch exactly what an action returns in one round trip; references are
// checked against Linear before anything is changed, so codes and messages match the embedded
// tracker's instead of depending on Linear's error wording.
const ISSUE = `id identifier number title description priority dueDate createdAt updatedAt archivedAt trashed
  parent { id } cycle { id } team { id key name } state { id name type } assignee { id name } project { id name }
  labels { nodes { id name } }`;
const PROJECT =
  "id name description state createdAt updatedAt lead { id } teams { nodes { id key name } }";
const TEAM =
  "id key name states { nodes { id name type } } labels { nodes { id name } } cycles { nodes { id } }";

type Node = { id: string; name: string };
type LinearIssue = {
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
type LinearTeam = {
  id: string;
  key: string;
  name: string;
  states: { nodes: { id: string; name: string; type: string }[] };
  labels: { nodes: Node[] };
  cycles: { nodes: { id: string }[] };
};
type LinearProject = {
  id: string;
  name: string;
  description: string | null;
  state: string;
  createdAt: string;
  updatedAt: string;
  lead: { id: string } | null;
  teams: { nodes: { id: string; key: string; name: string }[] };
};

function issueView(i: LinearIssue) {
  const { parent, cycle, labels, trashed: _t, ...rest } = i;
  return {
    ...rest,
    parentId: parent?.id ?? null,
    cycleId: cycle?.id ?? null,
    labels: labels.nodes,
  };
}

function projectView(p: LinearProject) {
  const { lead, teams, ...rest } = p;
  return { ...rest, leadId: lead?.id ?? null, teams: teams.nodes };
}

/** Linear does not accept the key or token at all (as opposed to refusing one action). */
export class LinearAuthenticationError extends TrackerError {}

export class LinearTracker {
  private readonly client: LinearClient;

  constructor({
    apiKey,
    accessToken,
    apiUrl,
  }: { apiKey?: string; accessToken?: string; apiUrl?: string }) {
    this.client = new LinearClient(accessToken ? { accessToken, apiUrl } : { apiKey, apiUrl });
  }

  /** One GraphQL call, with Linear's errors and rate limits mapped to our codes. */
  private async gql<T>(
    query: string,
    variables: Record<string, unknown> = {},
    attempt = 1,
  ): Promise<T> {
    try {
      const res = await this.client.client.rawRequest<T, Record<string, unknown>>(query, variables);
      return res.data as T;
    } catch (raw) {
      const err = raw instanceof LinearError ? raw : parseLinearError(raw as never);
      if (err instanceof RatelimitedLinearError) {
        const wait = Math.min(30_000, (err.retryAfter ?? 2 ** attempt) * 1000);
        if (attempt < 3) {
          await new Promise((r) => setTimeout(r, wait));
          return this.gql(query, variables, attempt + 1);
        }
        throw new TrackerError(
          "rate_limited",
          "Linear is rate-limiting these requests; wait a minute and try again.",
        );
      }
      if (err instanceof AuthenticationLinearError)
        throw new LinearAuthenticationError(
          "permission_denied",
          "Linear refused the connection: check LINEAR_API_KEY (or reconnect the integration).",
        );
      if (err instanceof ForbiddenLinearError)
        throw new TrackerError(
          "permission_denied",
          `The connected Linear account may not do this: ${err.message}`,
        );
      if (err instanceof InvalidInputLinearError)
        throw new TrackerError("validation_error", `Linear rejected the input: ${err.message}`);
      if (/not found/i.test(err.message)) throw new TrackerError("not_found", err.message);
      throw err;
    }
  }

  private async team(id: string): Promise<LinearTeam> {
    const { team } = await this.gql<{ team: LinearTeam | null }>(
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

  private async issue(id: string): Promise<LinearIssue | null> {
    const { issue } = await this.gql<{ issue: LinearIssue | null }>(
      `query Issue($id: String!) { issue(id: $id) { ${ISSUE} } }`,
      { id },
    );
    return issue;
  }

  private async liveIssue(id: string): Promise<LinearIssue> {
    const issue = await this.issue(id);
    if (!issue || issue.trashed)
      throw new TrackerError(
        "not_found",
        `No issue with ID ${id}; search_issue finds issues and their IDs.`,
      );
    return issue;
  }

  private async checkRefs(
    team: LinearTeam,
    f: { statusId?: string; cycleId?: string; assigneeId?: string; labelIds?: unknown },
  ) {
    if (f.statusId && !team.states.nodes.some((s) => s.id === f.statusId)) {
      throw new TrackerError(
        "invalid_status",
        `statusId ${f.statusId} is not a workflow state of this team; use one of: ${team.states.nodes.map((s) => `${s.name} (${s.id})`).join(", ")}.`,
      );
    }
    if (f.cycleId && !team.cycles.nodes.some((c) => c.id === f.cycleId))
      throw new TrackerError("not_found", `No cycle with ID ${f.cycleId} in this team.`);
    if (f.assigneeId) {
      const { user } = await this.gql<{ user: Node | null }>(
        "query User($id: String!) { user(id: $id) { id name } }",
        { id: f.assigneeId },
      );
      if (!user) throw new TrackerError("not_found", `No user with ID ${f.assigneeId}.`);
    }
    if (f.labelIds === undefined) return undefined;
    if (!Array.isArray(f.labelIds) || !f.labelIds.every((x) => typeof x === "string")) {
      throw new TrackerError(
        "validation_error",
        "additionalFields.labelIds must be an array of label IDs.",
      );
    }
    const ids = f.labelIds.map((l, i) => uuid(`additionalFields.labelIds[${i}]`, l as string));
    const missing = ids.filter((l) => !team.labels.nodes.some((n) => n.id === l));
    if (missing.length)
      throw new TrackerError(
        "unknown_label",
        `Label(s) ${missing.join(", ")} do not exist for this team.`,
      );
    return ids;
  }

  private async createIssueRaw(input: Record<string, unknown>) {
    const { issueCreate } = await this.gql<{
      issueCreate: { success: boolean; issue: LinearIssue };
    }>(
      `mutation IssueCreate($input: IssueCreateInput!) { issueCreate(input: $input) { success issue { ${ISSUE} } } }`,
      { input: compact(input) },
    );
    return { success: issueCreate.success, issue: issueView(issueCreate.issue) };
  }

  async create_issue(p: ActionParams<"create_issue">) {
    const teamId = uuid("teamId", p.teamId);
    const title = nonEmpty("title", p.title);
    const f = parseIssueFields(p);
    const labelIds = await this.checkRefs(await this.team(teamId), f);
    return this.createIssueRaw({
      teamId,
      title,
      description: p.description,
      stateId: f.statusId,
      priority: f.priority,
      dueDate: f.dueDate,
      cycleId: f.cycleId,
      assigneeId: f.assigneeId,
      labelIds,
    });
  }

  async update_issue(p: ActionParams<"update_issue">) {
    const id = uuid("issueId", p.issueId);
    const f = parseIssueFields(p);
    const title = p.title === undefined ? undefined : nonEmpty("title", p.title);
    const current = await this.liveIssue(id);
    const labelIds = await this.checkRefs(await this.team(current.team.id), f);
    const input = {
      title,
      description: p.description,
      stateId: f.statusId,
      priority: f.priority,
      dueDate: f.dueDate,
      cycleId: f.cycleId,
      assigneeId: f.assigneeId,
      labelIds,
    };
    const { issueUpdate } = await this.gql<{
      issueUpdate: { success: boolean; issue: LinearIssue };
    }>(
      `mutation IssueUpdate($id: String!, $input: IssueUpdateInput!) { issueUpdate(id: $id, input: $input) { success issue { ${ISSUE} } } }`,
      { id, input: compact(input) },
    );
    return { success: issueUpdate.success, issue: issueView(issueUpdate.issue) };
  }

  async get_issue_by_id(p: ActionParams<"get_issue_by_id">) {
    return { issue: issueView(await this.liveIssue(uuid("issueId", p.issueId))) };
  }

  async get_issue_by_issue_identifier(p: ActionParams<"get_issue_by_issue_identifier">) {
    const { key, number } = identifier(p.externalId);
    const issue = await this.issue(`${key}-${number}`);
    if (!issue || issue.trashed) throw new TrackerError("not_found", `No issue ${key}-${number}.`);
    return { issue: issueView(issue) };
  }

  async search_issue(p: ActionParams<"search_issue">) {
    const term = p.queryTerm.trim();
    if (!term)
      throw new TrackerError(
        "empty_query",
        "queryTerm must not be empty; give a word to look for in titles and descriptions.",
      );
    const groups = p.issueFilterFormula
      ? validateFormula(
          p.issueFilterFormula,
          { title: "string", number: "number", project: "string", createdAt: "date" },
          "issueFilterFormula",
        )
      : undefined;
    const { searchIssues } = await this.gql<{ searchIssues: { nodes: LinearIssue[] } }>(
      `query SearchIssues($term: String!, $filter: IssueFilter) { searchIssues(term: $term, filter: $filter, first: 50) { nodes { ${ISSUE} } } }`,
      { term, filter: groups ? toLinearFilter(groups) : undefined },
    );
    return { issues: searchIssues.nodes.filter((i) => !i.trashed && !i.archivedAt).map(issueView) };
  }

  async delete_issue(p: ActionParams<"delete_issue">) {
    const id = uuid("issueId", p.issueId);
    await this.liveIssue(id);
    await this.gql("mutation IssueDelete($id: String!) { issueDelete(id: $id) { success } }", {
      id,
    });
    return { success: true, issueId: id };
  }

  async archive_issue(p: ActionParams<"archive_issue">) {
    const id = uuid("issueId", p.issueId);
    await this.liveIssue(id);
    await this.gql("mutation IssueArchive($id: String!) { issueArchive(id: $id) { success } }", {
      id,
    });
    return { success: true, issue: issueView(await this.liveIssue(id)) };
  }

  async create_sub_issue(p: ActionParams<"create_sub_issue">) {
    const parentId = uuid("parentId", p.parentId);
    const teamId = uuid("teamId", p.teamId);
    const title = nonEmpty("title", p.title);
    const lead = parseLead(p.additionalFields);
    const parent = await this.issue(parentId);
    const team = await this.team(teamId);
    assertUsableParent(
      parent
        ? {
            identifier: parent.identifier,
            teamId: parent.team.id,
            deleted: Boolean(parent.trashed),
            archived: Boolean(parent.archivedAt),
          }
        : undefined,
      { parentId, teamId },
    );
    await this.checkRefs(team, { assigneeId: lead });
    return this.createIssueRaw({
      teamId,
      title,
      description: p.description,
      parentId,
      assigneeId: lead,
    });
  }

  private async liveProject(id: string): Promise<LinearProject> {
    const { project } = await this.gql<{ project: (LinearProject & { trashed?: boolean }) | null }>(
      `query Project($id: String!) { project(id: $id) { ${PROJECT} trashed } }`,
      { id },
    );
    if (!project || project.trashed)
      throw new TrackerError("not_found", `No project with ID ${id}.`);
    return project;
  }

  async create_project(p: ActionParams<"create_project">) {
    const teamIds = teamIdList(p.teamIds);
    const { description, state } = parseProjectFields(p);
    const name = nonEmpty("projectName", p.projectName);
    for (const t of teamIds) await this.team(t);
    const { projectCreate } = await this.gql<{
      projectCreate: { success: boolean; project: LinearProject };
    }>(
      `mutation ProjectCreate($input: ProjectCreateInput!) { projectCreate(input: $input) { success project { ${PROJECT} } } }`,
      {
        input: compact({ name, description, teamIds, state }),
      },
    );
    return { success: projectCreate.success, project: projectView(projectCreate.project) };
  }

  async update_project(p: ActionParams<"update_project">) {
    const id = uuid("projectId", p.projectId);
    const { name, description, state } = parseProjectFields(p);
    await this.liveProject(id);
    const { projectUpdate } = await this.gql<{
      projectUpdate: { success: boolean; project: LinearProject };
    }>(
      `mutation ProjectUpdate($id: String!, $input: ProjectUpdateInput!) { projectUpdate(id: $id, input: $input) { success project { ${PROJECT} } } }`,
      {
        id,
        input: compact({ name, description, state }),
      },
    );
    return { success: projectUpdate.success, project: projectView(projectUpdate.project) };
  }

  async get_project_by_id(p: ActionParams<"get_project_by_id">) {
    return { project: projectView(await this.liveProject(uuid("projectId", p.projectId))) };
  }

  async delete_project(p: ActionParams<"delete_project">) {
    const id = uuid("projectId", p.projectId);
    await this.liveProject(id);
    await this.gql("mutation ProjectDelete($id: String!) { projectDelete(id: $id) { success } }", {
      id,
    });
    return { success: true, projectId: id };
  }

  async search_teams(p: ActionParams<"search_teams">) {
    const groups = p.teamFilterFormula
      ? validateFormula(p.teamFilterFormula, { id: "string", name: "string" }, "teamFilterFormula")
      : undefined;
    const { teams } = await this.gql<{ teams: { nodes: LinearTeam[] } }>(
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

  run(name: ActionName, params: unknown): Promise<unknown> {
    return (this[name] as (p: unknown) => Promise<unknown>).call(this, params);
  }
}
