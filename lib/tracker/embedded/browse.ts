import { z } from "zod";
import { assertCanReadShared } from "@/lib/auth/access";
import type { Principal } from "@/lib/auth/principal";
import { jsonObject, num } from "@/lib/db/columns";
import type { Db } from "@/lib/db/types";
import { compileFilter, type FieldMap } from "../filter";
import { searchTerm } from "../validate";
import { ISSUE_SELECT, IssueRow, issueTextMatches, TeamRow } from "./read";

// Read-only views for the dashboard's tracker pages (the agent-facing actions are in issues.ts).
// Each takes the caller and checks it first: issues hold run inputs and links to runs.
const ISSUE_FIELDS: FieldMap = {
  title: { type: "string", sql: "i.title" },
  number: { type: "number", sql: "i.number" },
  project: { type: "string", sql: "p.name" },
  createdAt: { type: "date", sql: "i.created_at" },
};

/** An issue's page lists its first 200 sub-issues and latest 200 changes; projects, the newest 200. */
const DETAIL_ROWS = 200;

const HistoryRow = z.object({
  action: z.string(),
  changes: jsonObject<Record<string, unknown>>(),
  execution_id: z.string().nullable(),
  crew: z.string().nullable(),
  actor: z.string().nullable(),
  at: z.string(),
});

export async function listTeams(db: Db, principal: Principal) {
  assertCanReadShared(principal);
  const { rows } = await db.query(
    `SELECT t.id, t.key, t.name,
            (SELECT count(*)::int FROM tracker_issues i WHERE i.team_id = t.id AND i.deleted_at IS NULL AND i.archived_at IS NULL) AS open
       FROM tracker_teams t ORDER BY t.key`,
    [],
    TeamRow.extend({ open: num }),
  );
  return rows;
}

/** A team's issues, newest first, with optional text search and the same filter formula agents use. */
export async function listIssues(
  db: Db,
  principal: Principal,
  {
    teamKey,
    q,
    formula,
    archived = false,
  }: { teamKey?: string; q?: string; formula?: unknown; archived?: boolean },
) {
  assertCanReadShared(principal);
  const params: unknown[] = [];
  const where = [
    "i.deleted_at IS NULL",
    archived ? "i.archived_at IS NOT NULL" : "i.archived_at IS NULL",
  ];
  if (teamKey) {
    params.push(teamKey);
    where.push(`t.key = $${params.length}`);
  }
  const term = searchTerm("q", q ?? "");
  if (term) {
    params.push(`%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(issueTextMatches(`$${params.length}`));
  }
  if (formula) where.push(`(${compileFilter(formula, ISSUE_FIELDS, params, "filter")})`);
  const { rows } = await db.query(
    `${ISSUE_SELECT} WHERE ${where.join(" AND ")} ORDER BY i.created_at DESC LIMIT 200`,
    params,
    IssueRow,
  );
  return rows;
}

export async function issueDetail(db: Db, principal: Principal, identifier: string) {
  assertCanReadShared(principal);
  const { rows } = await db.query(
    `${ISSUE_SELECT} WHERE i.identifier = $1 AND i.deleted_at IS NULL`,
    [identifier.toUpperCase()],
    IssueRow,
  );
  const issue = rows[0];
  if (!issue) return undefined;
  const subIssues = (
    await db.query(
      `${ISSUE_SELECT} WHERE i.parent_id = $1 AND i.deleted_at IS NULL ORDER BY i.number LIMIT $2`,
      [issue.id, DETAIL_ROWS + 1],
      IssueRow,
    )
  ).rows;
  const parent = issue.parentId
    ? (
        await db.query(
          "SELECT identifier, title FROM tracker_issues WHERE id = $1",
          [issue.parentId],
          z.object({ identifier: z.string(), title: z.string() }),
        )
      ).rows[0]
    : undefined;
  // The latest changes, oldest of them first.
  const history = (
    await db.query(
      `SELECT h.action, h.changes, h.execution_id, e.crew, h.actor, h.at::text
         FROM tracker_history h LEFT JOIN executions e ON e.id = h.execution_id
        WHERE h.issue_id = $1 ORDER BY h.id DESC LIMIT $2`,
      [issue.id, DETAIL_ROWS + 1],
      HistoryRow,
    )
  ).rows;
  return {
    issue,
    subIssues: subIssues.slice(0, DETAIL_ROWS),
    parent,
    history: history.slice(0, DETAIL_ROWS).reverse(),
    more: { subIssues: subIssues.length > DETAIL_ROWS, history: history.length > DETAIL_ROWS },
  };
}

export async function listProjects(db: Db, principal: Principal) {
  assertCanReadShared(principal);
  const { rows } = await db.query(
    `SELECT p.id, p.name, p.description, p.state,
            COALESCE((SELECT json_agg(t.key ORDER BY t.key) FROM tracker_project_teams pt JOIN tracker_teams t ON t.id = pt.team_id WHERE pt.project_id = p.id), '[]'::json) AS teams,
            (SELECT count(*)::int FROM tracker_issues i WHERE i.project_id = p.id AND i.deleted_at IS NULL) AS issues
       FROM tracker_projects p WHERE p.deleted_at IS NULL ORDER BY p.created_at DESC, p.id LIMIT $1`,
    [DETAIL_ROWS + 1],
    z.object({
      id: z.string(),
      name: z.string(),
      description: z.string().nullable(),
      state: z.string(),
      teams: z.array(z.string()),
      issues: num,
    }),
  );
  return { projects: rows.slice(0, DETAIL_ROWS), more: rows.length > DETAIL_ROWS };
}
