import crypto from "node:crypto";
import { z } from "zod";
import type { Queryable } from "@/lib/db/types";

// GitHub signs a delivery's body and nothing else: not X-GitHub-Delivery, and it sends no time at
// all. So a body and signature captured once verify for ever, under any delivery id. What tells a
// replay from GitHub's own "Redeliver" (the same body under the SAME delivery id) is memory: each
// body and signature is remembered with the delivery id it first came with, in the database so
// every process shares it, and a unique key makes the first claim win when copies race.

/** How long a GitHub delivery's body and signature are remembered (docs/automation.md). */
export const GITHUB_REPLAY_WINDOW_DAYS = 30;
const WINDOW_MS = GITHUB_REPLAY_WINDOW_DAYS * 86_400_000;

export type ReplayCheck = { ok: true } | { ok: false; status: 400 | 409; detail: string };

/**
 * Whether a verified GitHub delivery may go on: it names its delivery id, and its body and
 * signature came with no other delivery id within the window. Forgets older bodies as it goes.
 */
export async function checkGithubReplay(
  q: Queryable,
  {
    triggerId,
    deliveryId,
    signature,
    body,
    now,
  }: { triggerId: string; deliveryId: string | null; signature: string; body: Buffer; now: Date },
): Promise<ReplayCheck> {
  if (!deliveryId)
    return {
      ok: false,
      status: 400,
      detail:
        "Missing the X-GitHub-Delivery header: GitHub sends one with every delivery, and without it a replayed delivery cannot be told from a new one.",
    };
  const digest = crypto
    .createHash("sha256")
    .update(`${signature}\n`)
    .update(body)
    .digest("base64url");
  await q.query("DELETE FROM trigger_replays WHERE trigger_id = $1 AND received_at < $2", [
    triggerId,
    new Date(now.getTime() - WINDOW_MS),
  ]);
  // The no-op update returns the row that won, ours or one committed before.
  const { rows } = await q.query(
    `INSERT INTO trigger_replays (trigger_id, digest, delivery_id, received_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (trigger_id, digest) DO UPDATE SET delivery_id = trigger_replays.delivery_id
     RETURNING delivery_id`,
    [triggerId, digest, deliveryId, now],
    z.object({ delivery_id: z.string() }),
  );
  if (rows[0]?.delivery_id === deliveryId) return { ok: true };
  return {
    ok: false,
    status: 409,
    detail:
      "This body and signature came before with another X-GitHub-Delivery id: a replay starts nothing. (GitHub's Redeliver keeps the delivery id and is answered with the first run.)",
  };
}
