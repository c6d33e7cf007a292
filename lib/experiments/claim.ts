import { z } from "zod";
import { jsonObject } from "@/lib/db/columns";
import type { Db } from "@/lib/db/types";
import type { ExperimentSpec } from "./experiment-view";

// Which worker advances which experiment: a lease, renewed at every step. The lease saves work
// (one worker launches and scores); correctness does not rest on it (every write is conditional).

export type Claimed = {
  id: string;
  crew: string;
  name: string;
  spec: ExperimentSpec;
  owner_user_id: string | null;
  token_id: string | null;
};
const ClaimedRow = z.object({
  id: z.string(),
  crew: z.string(),
  name: z.string(),
  spec: jsonObject<ExperimentSpec>(),
  owner_user_id: z.string().nullable(),
  token_id: z.string().nullable(),
});

/** Takes (or renews) the lease on running experiments no other live worker holds. */
export async function claimExperiments(db: Db, owner: string, leaseMs: number): Promise<Claimed[]> {
  const { rows } = await db.query(
    `UPDATE experiments SET lease_owner = $1, lease_expires_at = now() + $2 * interval '1 millisecond'
      WHERE id IN (SELECT id FROM experiments
                    WHERE status = 'running'
                      AND (lease_owner = $1 OR lease_expires_at IS NULL OR lease_expires_at < now())
                    ORDER BY created_at LIMIT 10 FOR UPDATE SKIP LOCKED)
      RETURNING id, crew, name, spec, owner_user_id, token_id`,
    [owner, leaseMs],
    ClaimedRow,
  );
  return rows;
}
