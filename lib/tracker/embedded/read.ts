import { z } from "zod";
import { num, time } from "@/lib/db/columns";
import type { Queryable } from "@/lib/db/types";
import { TrackerError } from "../errors";

/**
 * Text search over ISSUE_SELECT's issue `i`: its title and description matched against the
 * LIKE pattern parameter `param`, reading their first 16 KB (substr fetches no more of a long
 * value), so a search costs at most the term's length times 16 KB per issue.
 */
const SEARCHED_CHARS = 16_384;
export const issueTextMatches = (param: string) =>
  `(substr(i.title, 1, ${SEARCHED_CHARS}) ILIKE ${param} OR substr(i.description, 1, ${SEARCHED_CHARS}) ILIKE ${param})`;

// How issues, projects and teams look to an agent (and over HTTP).
export const ISSUE_SELECT = `
  SELECT i.id, i.identifier, i.number, i.title, i.description, i.priority,
         to_char(i.due_date, 'YYYY-MM-DD') AS "dueDate", i.cycle_id AS "cycleId", i.parent_id AS "parentId",
         i.created_at AS "createdAt", i.updated_at AS "updatedAt", i.archived_at AS "archivedAt",
         json_build_object('id', t.id, 'key', t.key, 'name', t.name) AS team,
         json_build_object('id', s.id, 'name', s.name, 'type', s.type) AS state,
         CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id, 'name', u.name) END AS assignee,
         CASE WHEN p.id IS NULL THEN NULL ELSE json_build_object('id', p.id, 'name', p.name) END AS project,
         COALESCE((SELECT json_agg(json_build_object('id', l.id, 'name', l.name) ORDER BY l.name)
                     FROM tracker_issue_labels il JOIN tracker_labels l ON l.id = il.label_id
                    WHERE il.issue_id = i.id), '[]'::json) AS labels
    FROM tracker_issues i
    JOIN tracker_teams t ON t.id = i.team_id
    JOIN tracker_states s ON s.id = i.state_id
    LEFT JOIN tracker_users u ON u.id = i.assignee_id
    LEFT JOIN tracker_projects p ON p.id = i.project_id AND p.deleted_at IS NULL`;

const Named = z.object({ id: z.string(), name: z.string() });
export const TeamRow = Named.extend({ key: z.string() });
/** A row of ISSUE_SELECT; its JSON parts are built by the statement, small, and checked. */
export const IssueRow = z.object({
  id: z.string(),
  identifier: z.string(),
  number: num,
  title: z.string(),
  description: z.string().nullable(),
  priority: num,
  dueDate: z.string().nullable(),
  cycleId: z.string().nullable(),
  parentId: z.string().nullable(),
  createdAt: time,
  updatedAt: time,
  archivedAt: time.nullable(),
  team: TeamRow,
  state: Named.extend({ type: z.string() }),
  assignee: Named.nullable(),
  project: Named.nullable(),
  labels: z.array(Named),
});
export type IssueView = z.infer<typeof IssueRow>;

export async function issueById(q: Queryable, id: string): Promise<IssueView> {
  const { rows } = await q.query(
    `${ISSUE_SELECT} WHERE i.id = $1 AND i.deleted_at IS NULL`,
    [id],
    IssueRow,
  );
  if (!rows[0])
    throw new TrackerError(
      "not_found",
      `No issue with ID ${id}; search_issue finds issues and their IDs.`,
    );
  return rows[0];
}

export async function projectById(q: Queryable, id: string) {
  const { rows } = await q.query(
    `SELECT p.id, p.name, p.description, p.state, p.lead_id AS "leadId", p.created_at AS "createdAt", p.updated_at AS "updatedAt",
            COALESCE((SELECT json_agg(json_build_object('id', t.id, 'key', t.key, 'name', t.name) ORDER BY t.key)
                        FROM tracker_project_teams pt JOIN tracker_teams t ON t.id = pt.team_id
                       WHERE pt.project_id = p.id), '[]'::json) AS teams
       FROM tracker_projects p WHERE p.id = $1 AND p.deleted_at IS NULL`,
    [id],
  );
  if (!rows[0]) throw new TrackerError("not_found", `No project with ID ${id}.`);
  return rows[0];
}

export async function teamById(q: Queryable, id: string) {
  const { rows } = await q.query(
    "SELECT id, key, name FROM tracker_teams WHERE id = $1",
    [id],
    TeamRow,
  );
  if (!rows[0])
    throw new TrackerError(
      "not_found",
      `No team with ID ${id}; search_teams lists the teams and their IDs.`,
    );
  return rows[0];
}
