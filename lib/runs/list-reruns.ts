import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import type { Db } from "@/lib/db/types";
import { executionColumns as c } from "./execution-row";
import { getExecutionOrThrow } from "./get-execution";

const RerunRow = z.object({
  id: c.id,
  origin_kind: z.enum(["rerun", "fork"]),
  status: c.status,
  created_at: c.created_at,
  started_by_name: c.started_by_name,
  inputs: c.inputs,
});

/** Which inputs differ between two runs (by their stored values). */
function changedInputs(from: Record<string, unknown>, to: Record<string, unknown>): string[] {
  const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])];
  return keys.filter((k) => JSON.stringify(from[k]) !== JSON.stringify(to[k]));
}

/**
 * The runs started again from `originId` (re-runs and forks), newest first, with the inputs each
 * changed. A user token sees only its own, as everywhere.
 */
export async function listReruns({
  db,
  crew,
  principal,
  originId,
}: {
  db: Db;
  crew: string;
  principal: Principal;
  originId: string;
}) {
  const origin = await getExecutionOrThrow({ db, crew, id: originId, principal });
  const own = principal.kind === "user";
  const { rows } = await db.query(
    `SELECT id, origin_kind, status, created_at, started_by_name, inputs FROM executions
      WHERE origin_id = $1 ${own ? "AND owner_user_id = $2" : ""}
      ORDER BY created_at DESC LIMIT 100`,
    own ? [origin.id, principal.userId] : [origin.id],
    RerunRow,
  );
  return {
    reruns: rows.map((r) => ({
      execution_id: r.id,
      kind: r.origin_kind,
      status: r.status,
      created_at: new Date(r.created_at).toISOString(),
      started_by: r.started_by_name,
      changed_inputs: changedInputs(origin.inputs, r.inputs),
    })),
  };
}
