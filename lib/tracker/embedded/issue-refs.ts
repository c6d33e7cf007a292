import { z } from "zod";
import { IdRow } from "@/lib/db/columns";
import type { Queryable } from "@/lib/db/types";
import { TrackerError } from "../errors";
import { type parseIssueFields, uuid } from "../validate";

// An issue's references (workflow state, cycle, assignee, labels) checked against the embedded
// tracker's data, in the transaction that writes the issue.

async function checkState(q: Queryable, teamId: string, statusId: string) {
  const { rows } = await q.query(
    "SELECT id, name, team_id FROM tracker_states WHERE team_id = $1",
    [teamId],
    z.object({ id: z.string(), name: z.string(), team_id: z.string() }),
  );
  if (!rows.some((s) => s.id === statusId)) {
    throw new TrackerError(
      "invalid_status",
      `statusId ${statusId} is not a workflow state of this team; use one of: ${rows.map((s) => `${s.name} (${s.id})`).join(", ")}.`,
    );
  }
}

async function checkCycle(q: Queryable, teamId: string, cycleId: string) {
  const { rows } = await q.query("SELECT 1 FROM tracker_cycles WHERE id = $1 AND team_id = $2", [
    cycleId,
    teamId,
  ]);
  if (!rows[0]) throw new TrackerError("not_found", `No cycle with ID ${cycleId} in this team.`);
}

export async function checkAssignee(q: Queryable, userId: string) {
  const { rows } = await q.query("SELECT 1 FROM tracker_users WHERE id = $1", [userId]);
  if (!rows[0]) throw new TrackerError("not_found", `No user with ID ${userId}.`);
}

async function checkLabels(q: Queryable, teamId: string, raw: unknown): Promise<string[]> {
  if (!Array.isArray(raw) || !raw.every((x) => typeof x === "string")) {
    throw new TrackerError(
      "validation_error",
      "additionalFields.labelIds must be an array of label IDs.",
    );
  }
  const ids = raw.map((l, i) => uuid(`additionalFields.labelIds[${i}]`, l));
  if (!ids.length) return [];
  const { rows } = await q.query(
    "SELECT id FROM tracker_labels WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)::uuid) AND (team_id IS NULL OR team_id = $2)",
    [JSON.stringify(ids), teamId],
    IdRow,
  );
  const missing = ids.filter((l) => !rows.some((r) => r.id === l));
  if (missing.length)
    throw new TrackerError(
      "unknown_label",
      `Label(s) ${missing.join(", ")} do not exist for this team.`,
    );
  return ids;
}

/** The fields parseIssueFields checked for form, checked against the team's data in the transaction. */
export async function checkIssueRefs(
  q: Queryable,
  teamId: string,
  f: ReturnType<typeof parseIssueFields>,
) {
  if (f.statusId) await checkState(q, teamId, f.statusId);
  if (f.cycleId) await checkCycle(q, teamId, f.cycleId);
  if (f.assigneeId) await checkAssignee(q, f.assigneeId);
  return f.labelIds === undefined ? undefined : checkLabels(q, teamId, f.labelIds);
}
