import { TrackerError } from "../errors";
import { validateFormula } from "../filter";
import type { ActionParams } from "../schemas";
import {
  assertUsableParent,
  compact,
  identifier,
  issueQueryTerm,
  nonEmpty,
  parseIssueFields,
  parseLead,
  uuid,
} from "../validate";
import { toLinearFilter } from "./filter";
import type { Gql } from "./graphql";
import { ISSUE, issueView, type LinearIssue, type LinearTeam, type Node } from "./shapes";
import { teamOf } from "./teams";

// The issue actions against Linear. References (state, cycle, assignee, labels, parent) are
// checked against Linear before anything is changed, so codes and messages match the embedded
// tracker's instead of depending on Linear's error wording.

async function issueOf(gql: Gql, id: string): Promise<LinearIssue | null> {
  const { issue } = await gql<{ issue: LinearIssue | null }>(
    `query Issue($id: String!) { issue(id: $id) { ${ISSUE} } }`,
    { id },
  );
  return issue;
}

async function liveIssue(gql: Gql, id: string): Promise<LinearIssue> {
  const issue = await issueOf(gql, id);
  if (!issue || issue.trashed)
    throw new TrackerError(
      "not_found",
      `No issue with ID ${id}; search_issue finds issues and their IDs.`,
    );
  return issue;
}

async function checkRefs(
  gql: Gql,
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
    const { user } = await gql<{ user: Node | null }>(
      "query User($id: String!) { user(id: $id) { id name } }",
      { id: f.assigneeId },
    );
    if (!user) throw new TrackerError("not_found", `No user with ID ${f.assigneeId}.`);
  }
  if (f.labelIds === undefined) return undefined;
  const labelIds: unknown = f.labelIds;
  if (!Array.isArray(labelIds) || !labelIds.every((x): x is string => typeof x === "string")) {
    throw new TrackerError(
      "validation_error",
      "additionalFields.labelIds must be an array of label IDs.",
    );
  }
  const ids = labelIds.map((l, i) => uuid(`additionalFields.labelIds[${i}]`, l));
  const missing = ids.filter((l) => !team.labels.nodes.some((n) => n.id === l));
  if (missing.length)
    throw new TrackerError(
      "unknown_label",
      `Label(s) ${missing.join(", ")} do not exist for this team.`,
    );
  return ids;
}

async function createIssueRaw(gql: Gql, input: Record<string, unknown>) {
  const { issueCreate } = await gql<{
    issueCreate: { success: boolean; issue: LinearIssue };
  }>(
    `mutation IssueCreate($input: IssueCreateInput!) { issueCreate(input: $input) { success issue { ${ISSUE} } } }`,
    { input: compact(input) },
  );
  return { success: issueCreate.success, issue: issueView(issueCreate.issue) };
}

/** An issue's fields as Linear's IssueCreateInput and IssueUpdateInput both name them. */
function issueInput(
  title: string | undefined,
  description: string | undefined,
  f: ReturnType<typeof parseIssueFields>,
  labelIds: string[] | undefined,
) {
  return {
    title,
    description,
    stateId: f.statusId,
    priority: f.priority,
    dueDate: f.dueDate,
    cycleId: f.cycleId,
    assigneeId: f.assigneeId,
    labelIds,
  };
}

export async function createIssue(gql: Gql, p: ActionParams<"create_issue">) {
  const teamId = uuid("teamId", p.teamId);
  const title = nonEmpty("title", p.title);
  const f = parseIssueFields(p);
  const labelIds = await checkRefs(gql, await teamOf(gql, teamId), f);
  return createIssueRaw(gql, { teamId, ...issueInput(title, p.description, f, labelIds) });
}

export async function updateIssue(gql: Gql, p: ActionParams<"update_issue">) {
  const id = uuid("issueId", p.issueId);
  const f = parseIssueFields(p);
  const title = p.title === undefined ? undefined : nonEmpty("title", p.title);
  const current = await liveIssue(gql, id);
  const labelIds = await checkRefs(gql, await teamOf(gql, current.team.id), f);
  const input = issueInput(title, p.description, f, labelIds);
  const { issueUpdate } = await gql<{
    issueUpdate: { success: boolean; issue: LinearIssue };
  }>(
    `mutation IssueUpdate($id: String!, $input: IssueUpdateInput!) { issueUpdate(id: $id, input: $input) { success issue { ${ISSUE} } } }`,
    { id, input: compact(input) },
  );
  return { success: issueUpdate.success, issue: issueView(issueUpdate.issue) };
}

export async function getIssueById(gql: Gql, p: ActionParams<"get_issue_by_id">) {
  return { issue: issueView(await liveIssue(gql, uuid("issueId", p.issueId))) };
}

export async function getIssueByIdentifier(
  gql: Gql,
  p: ActionParams<"get_issue_by_issue_identifier">,
) {
  const { key, number } = identifier(p.externalId);
  const issue = await issueOf(gql, `${key}-${number}`);
  if (!issue || issue.trashed) throw new TrackerError("not_found", `No issue ${key}-${number}.`);
  return { issue: issueView(issue) };
}

export async function searchIssues(gql: Gql, p: ActionParams<"search_issue">) {
  const term = issueQueryTerm(p.queryTerm);
  const groups = p.issueFilterFormula
    ? validateFormula(
        p.issueFilterFormula,
        { title: "string", number: "number", project: "string", createdAt: "date" },
        "issueFilterFormula",
      )
    : undefined;
  const { searchIssues } = await gql<{ searchIssues: { nodes: LinearIssue[] } }>(
    `query SearchIssues($term: String!, $filter: IssueFilter) { searchIssues(term: $term, filter: $filter, first: 50) { nodes { ${ISSUE} } } }`,
    { term, filter: groups ? toLinearFilter(groups) : undefined },
  );
  return { issues: searchIssues.nodes.filter((i) => !i.trashed && !i.archivedAt).map(issueView) };
}

export async function deleteIssue(gql: Gql, p: ActionParams<"delete_issue">) {
  const id = uuid("issueId", p.issueId);
  await liveIssue(gql, id);
  await gql("mutation IssueDelete($id: String!) { issueDelete(id: $id) { success } }", {
    id,
  });
  return { success: true, issueId: id };
}

export async function archiveIssue(gql: Gql, p: ActionParams<"archive_issue">) {
  const id = uuid("issueId", p.issueId);
  await liveIssue(gql, id);
  await gql("mutation IssueArchive($id: String!) { issueArchive(id: $id) { success } }", {
    id,
  });
  return { success: true, issue: issueView(await liveIssue(gql, id)) };
}

export async function createSubIssue(gql: Gql, p: ActionParams<"create_sub_issue">) {
  const parentId = uuid("parentId", p.parentId);
  const teamId = uuid("teamId", p.teamId);
  const title = nonEmpty("title", p.title);
  const lead = parseLead(p.additionalFields);
  const parent = await issueOf(gql, parentId);
  const team = await teamOf(gql, teamId);
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
  await checkRefs(gql, team, { assigneeId: lead });
  return createIssueRaw(gql, {
    teamId,
    title,
    description: p.description,
    parentId,
    assigneeId: lead,
  });
}
