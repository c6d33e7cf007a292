import crypto from "node:crypto";
import type { Db } from "@/lib/db/types";
import { compileFilter, type FieldMap } from "../filter";
import type { ActionParams } from "../schemas";
import { nonEmpty, parseProjectFields, teamIdList, uuid } from "../validate";
import { type ActionContext, recordHistory } from "./history";
import { projectById, teamById } from "./read";

const TEAM_FIELDS: FieldMap = {
  id: { type: "string", sql: "t.id::text" },
  name: { type: "string", sql: "t.name" },
};

export async function createProject(db: Db, p: ActionParams<"create_project">, ctx: ActionContext) {
  const teamIds = teamIdList(p.teamIds);
  const name = nonEmpty("projectName", p.projectName);
  const fields = parseProjectFields(p);
  const state = fields.state ?? "planned";
  const description = fields.description ?? null;
  return db.tx(async (q) => {
    for (const t of teamIds) await teamById(q, t);
    const id = crypto.randomUUID();
    await q.query(
      "INSERT INTO tracker_projects (id, name, description, state) VALUES ($1, $2, $3, $4)",
      [id, name, description, state],
    );
    for (const t of new Set(teamIds))
      await q.query("INSERT INTO tracker_project_teams (project_id, team_id) VALUES ($1, $2)", [
        id,
        t,
      ]);
    await recordHistory(q, ctx, { projectId: id }, "created", { name, state });
    return { success: true, project: await projectById(q, id) };
  });
}

export async function updateProject(db: Db, p: ActionParams<"update_project">, ctx: ActionContext) {
  const projectId = uuid("projectId", p.projectId);
  const { name, description, state } = parseProjectFields(p);
  return db.tx(async (q) => {
    await projectById(q, projectId);
    await q.query(
      `UPDATE tracker_projects SET name = COALESCE($2, name), description = COALESCE($3, description), state = COALESCE($4, state), updated_at = now()
        WHERE id = $1`,
      [projectId, name ?? null, description ?? null, state ?? null],
    );
    await recordHistory(q, ctx, { projectId }, "updated", { name, description, state });
    return { success: true, project: await projectById(q, projectId) };
  });
}

export async function getProject(db: Db, p: ActionParams<"get_project_by_id">) {
  return { project: await projectById(db, uuid("projectId", p.projectId)) };
}

export async function deleteProject(db: Db, p: ActionParams<"delete_project">, ctx: ActionContext) {
  const projectId = uuid("projectId", p.projectId);
  return db.tx(async (q) => {
    await projectById(q, projectId);
    await q.query("UPDATE tracker_projects SET deleted_at = now() WHERE id = $1", [projectId]);
    await recordHistory(q, ctx, { projectId }, "deleted", {});
    return { success: true, projectId };
  });
}

export async function searchTeams(db: Db, p: ActionParams<"search_teams">) {
  const params: unknown[] = [];
  const where = p.teamFilterFormula
    ? `WHERE ${compileFilter(p.teamFilterFormula, TEAM_FIELDS, params, "teamFilterFormula")}`
    : "";
  const { rows } = await db.query(
    `SELECT t.id, t.key, t.name,
            (SELECT json_agg(json_build_object('id', s.id, 'name', s.name, 'type', s.type) ORDER BY s.position)
               FROM tracker_states s WHERE s.team_id = t.id) AS states,
            COALESCE((SELECT json_agg(json_build_object('id', l.id, 'name', l.name) ORDER BY l.name)
               FROM tracker_labels l WHERE l.team_id = t.id OR l.team_id IS NULL), '[]'::json) AS labels
       FROM tracker_teams t ${where} ORDER BY t.key`,
    params,
  );
  return { teams: rows };
}
