import crypto from "node:crypto";
import { z } from "zod";
import { IdRow, num, time } from "@/lib/db/columns";
import type { Db, Queryable } from "@/lib/db/types";
import { TrackerError } from "../errors";
import { compileFilter, type FieldMap } from "../filter";
import type { ActionParams } from "../schemas";
import {
  assertUsableParent,
  identifier,
  issueQueryTerm,
  nonEmpty,
  parseIssueFields,
  parseLead,
  uuid,
} from "../validate";
import { type ActionContext, recordHistory } from "./history";
import { checkAssignee, checkIssueRefs } from "./issue-refs";
import { ISSUE_SELECT, issueById, issueTextMatches, teamById } from "./read";

const ISSUE_FIELDS: FieldMap = {
  title: { type: "string", sql: "i.title" },
  number: { type: "number", sql: "i.number" },
  project: { type: "string", sql: "p.name" },
  createdAt: { type: "date", sql: "i.created_at" },
};

async function nextNumber(q: Queryable, teamId: string) {
  const { rows } = await q.query(
    "UPDATE tracker_teams SET next_number = next_number + 1 WHERE id = $1 RETURNING next_number - 1 AS number, key",
    [teamId],
    z.object({ number: num, key: z.string() }),
  );
  const next = rows[0];
  // The caller has just read the team in this transaction.
  if (!next) throw new TrackerError("not_found", `No team with ID ${teamId}.`);
  return next;
}

async function insertIssue(
  q: Queryable,
  ctx: ActionContext,
  f: {
    teamId: string;
    title: string;
    description?: string;
    statusId?: string;
    priority?: number;
    dueDate?: string;
    cycleId?: string;
    assigneeId?: string;
    labelIds: string[];
    parentId?: string;
  },
) {
  const stateId =
    f.statusId ??
    (
      await q.query(
        "SELECT id FROM tracker_states WHERE team_id = $1 ORDER BY position LIMIT 1",
        [f.teamId],
        IdRow,
      )
    ).rows[0]?.id;
  if (!stateId) throw new TrackerError("invalid_status", "This team has no workflow states.");
  const { number, key } = await nextNumber(q, f.teamId);
  const id = crypto.randomUUID();
  await q.query(
    `INSERT INTO tracker_issues (id, team_id, number, identifier, title, description, state_id, priority, due_date, cycle_id, assignee_id, parent_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      id,
      f.teamId,
      number,
      `${key}-${number}`,
      f.title,
      f.description ?? null,
      stateId,
      f.priority ?? 0,
      f.dueDate ?? null,
      f.cycleId ?? null,
      f.assigneeId ?? null,
      f.parentId ?? null,
    ],
  );
  for (const label of f.labelIds)
    await q.query("INSERT INTO tracker_issue_labels (issue_id, label_id) VALUES ($1, $2)", [
      id,
      label,
    ]);
  await recordHistory(q, ctx, { issueId: id }, f.parentId ? "created_sub_issue" : "created", {
    title: f.title,
    parentId: f.parentId ?? null,
  });
  return issueById(q, id);
}

export async function createIssue(db: Db, p: ActionParams<"create_issue">, ctx: ActionContext) {
  const teamId = uuid("teamId", p.teamId);
  const title = nonEmpty("title", p.title);
  const f = parseIssueFields(p);
  return db.tx(async (q) => {
    await teamById(q, teamId);
    const labelIds = (await checkIssueRefs(q, teamId, f)) ?? [];
    const { labelIds: _raw, ...fields } = f;
    const issue = await insertIssue(q, ctx, {
      teamId,
      title,
      description: p.description,
      ...fields,
      labelIds,
    });
    return { success: true, issue };
  });
}

export async function updateIssue(db: Db, p: ActionParams<"update_issue">, ctx: ActionContext) {
  const issueId = uuid("issueId", p.issueId);
  const f = parseIssueFields(p);
  if (p.title !== undefined) nonEmpty("title", p.title);
  return db.tx(async (q) => {
    const current = await issueById(q, issueId);
    const labelIds = await checkIssueRefs(q, current.team.id, f);
    const { statusId, cycleId, priority: prio, dueDate: due, assigneeId } = f;
    const changes: Record<string, unknown> = {};
    const set: string[] = [];
    const params: unknown[] = [issueId];
    const put = (column: string, key: string, value: unknown) => {
      if (value === undefined) return;
      params.push(value);
      set.push(`${column} = $${params.length}`);
      changes[key] = value;
    };
    put("title", "title", p.title?.trim());
    put("description", "description", p.description);
    put("state_id", "statusId", statusId);
    put("priority", "priority", prio);
    put("due_date", "dueDate", due);
    put("cycle_id", "cycleId", cycleId);
    put("assignee_id", "assigneeId", assigneeId);
    if (set.length)
      await q.query(
        `UPDATE tracker_issues SET ${set.join(", ")}, updated_at = now() WHERE id = $1`,
        params,
      );
    if (labelIds) {
      await q.query("DELETE FROM tracker_issue_labels WHERE issue_id = $1", [issueId]);
      for (const l of labelIds)
        await q.query("INSERT INTO tracker_issue_labels (issue_id, label_id) VALUES ($1, $2)", [
          issueId,
          l,
        ]);
      changes.labelIds = labelIds;
    }
    await recordHistory(q, ctx, { issueId }, "updated", changes);
    return { success: true, issue: await issueById(q, issueId) };
  });
}

export async function getIssueById(db: Db, p: ActionParams<"get_issue_by_id">) {
  return { issue: await issueById(db, uuid("issueId", p.issueId)) };
}

export async function getIssueByIdentifier(
  db: Db,
  p: ActionParams<"get_issue_by_issue_identifier">,
) {
  const { key, number } = identifier(p.externalId);
  const { rows } = await db.query(
    "SELECT i.id FROM tracker_issues i JOIN tracker_teams t ON t.id = i.team_id WHERE t.key = $1 AND i.number = $2 AND i.deleted_at IS NULL",
    [key, number],
    IdRow,
  );
  if (!rows[0]) throw new TrackerError("not_found", `No issue ${key}-${number}.`);
  return { issue: await issueById(db, rows[0].id) };
}

export async function searchIssues(db: Db, p: ActionParams<"search_issue">) {
  const term = issueQueryTerm(p.queryTerm);
  const params: unknown[] = [`%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`];
  const filter = p.issueFilterFormula
    ? ` AND (${compileFilter(p.issueFilterFormula, ISSUE_FIELDS, params, "issueFilterFormula")})`
    : "";
  const { rows } = await db.query(
    `${ISSUE_SELECT}
      WHERE i.deleted_at IS NULL AND i.archived_at IS NULL
        AND ${issueTextMatches("$1")}${filter}
      ORDER BY i.created_at DESC LIMIT 50`,
    params,
  );
  return { issues: rows };
}

// Deleting and archiving keep the row: each sets its mark (archiving keeps the first time).
const MARKS = {
  deleted: "deleted_at = now()",
  archived: "archived_at = COALESCE(archived_at, now())",
};

/** Marks an issue that is there, and records it in its history. */
async function markIssue(
  q: Queryable,
  ctx: ActionContext,
  issueId: string,
  mark: keyof typeof MARKS,
) {
  await issueById(q, issueId);
  await q.query(`UPDATE tracker_issues SET ${MARKS[mark]}, updated_at = now() WHERE id = $1`, [
    issueId,
  ]);
  await recordHistory(q, ctx, { issueId }, mark, {});
}

export async function deleteIssue(db: Db, p: ActionParams<"delete_issue">, ctx: ActionContext) {
  const issueId = uuid("issueId", p.issueId);
  return db.tx(async (q) => {
    await markIssue(q, ctx, issueId, "deleted");
    return { success: true, issueId };
  });
}

export async function archiveIssue(db: Db, p: ActionParams<"archive_issue">, ctx: ActionContext) {
  const issueId = uuid("issueId", p.issueId);
  return db.tx(async (q) => {
    await markIssue(q, ctx, issueId, "archived");
    return { success: true, issue: await issueById(q, issueId) };
  });
}

export async function createSubIssue(
  db: Db,
  p: ActionParams<"create_sub_issue">,
  ctx: ActionContext,
) {
  const parentId = uuid("parentId", p.parentId);
  const teamId = uuid("teamId", p.teamId);
  const title = nonEmpty("title", p.title);
  const lead = parseLead(p.additionalFields);
  return db.tx(async (q) => {
    const { rows } = await q.query(
      "SELECT team_id, archived_at, deleted_at, identifier FROM tracker_issues WHERE id = $1",
      [parentId],
      z.object({
        team_id: z.string(),
        archived_at: time.nullable(),
        deleted_at: time.nullable(),
        identifier: z.string(),
      }),
    );
    const parent = rows[0];
    await teamById(q, teamId);
    assertUsableParent(
      parent && {
        identifier: parent.identifier,
        teamId: parent.team_id,
        deleted: Boolean(parent.deleted_at),
        archived: Boolean(parent.archived_at),
      },
      { parentId, teamId },
    );
    if (lead) await checkAssignee(q, lead);
    const issue = await insertIssue(q, ctx, {
      teamId,
      title,
      description: p.description,
      assigneeId: lead,
      labelIds: [],
      parentId,
    });
    return { success: true, issue };
  });
}
