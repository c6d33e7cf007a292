import type { Queryable } from "@/lib/db/types";

// The embedded tracker's history: each action on an issue or a project, with who took it.

/** Who acted: the run whose agent called the action, and the person, when known. */
export type ActionContext = { executionId?: string | null; actor?: string };

/** Records an action on the issue or the project `on` names, with what it changed. */
export async function recordHistory(
  q: Queryable,
  ctx: ActionContext,
  on: { issueId: string } | { projectId: string },
  action: string,
  changes: Record<string, unknown>,
) {
  const [column, id] = "issueId" in on ? ["issue_id", on.issueId] : ["project_id", on.projectId];
  await q.query(
    `INSERT INTO tracker_history (${column}, action, changes, execution_id, actor) VALUES ($1, $2, $3::jsonb, $4, $5)`,
    [id, action, JSON.stringify(changes), ctx.executionId ?? null, ctx.actor ?? null],
  );
}
