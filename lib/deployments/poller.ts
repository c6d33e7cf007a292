import { IdRow, num } from "@/lib/db/columns";
import { isConnectionError } from "@/lib/db/connection-errors";
import type { Db } from "@/lib/db/types";
import { errorMessage } from "@/lib/errors";
import { createNapper, idleBackoff } from "@/lib/util/napper";
import { POLL_CHANNEL } from "./remote-runs";
import { syncRemote } from "./sync";

const FAST_MS = 2_000;
const SLOW_MS = 30_000;

/**
 * Polls active remote runs (in the worker): every 2 s while they change, backing off to 30 s
 * while nothing does, so a deployment that cannot reach our webhooks still shows progress.
 * Several workers share the work with SKIP LOCKED; a webhook or a resume asks for a poll now.
 */
export function startRemotePoller({
  db,
  concurrency = 8,
  log = console.log,
}: {
  db: Db;
  concurrency?: number;
  log?: (msg: string) => void;
}) {
  let stopping = false;
  const napper = createNapper();
  const naps = idleBackoff(500);
  db.listen(POLL_CHANNEL, () => napper.wake()).catch((err) =>
    log(`[remote] LISTEN failed: ${err.message}`),
  );

  async function pollOne(id: string, intervalMs: number) {
    let next: number | null = intervalMs;
    try {
      const { changed, done } = await syncRemote(db, id);
      next = done ? null : changed ? FAST_MS : Math.min(intervalMs * 2, SLOW_MS);
    } catch (err) {
      log(`[remote] run ${id}: ${errorMessage(err)}`);
      next = SLOW_MS;
    }
    await db.query(
      `UPDATE executions SET next_poll_at = CASE WHEN $2::int IS NULL THEN NULL ELSE now() + make_interval(secs => $2::int / 1000.0) END,
              remote = jsonb_set(coalesce(remote, '{}'::jsonb), '{interval_ms}', to_jsonb(coalesce($2::int, 0)))
        WHERE id = $1 AND next_poll_at IS NOT NULL`,
      [id, next],
    );
    // Its next poll is this loop's own schedule: be awake for it, however long the idle nap.
    if (next !== null) napper.wakeIn(next);
  }

  let failing = false;
  const loop = (async () => {
    while (!stopping) {
      let found = false;
      try {
        // Claimed by pushing next_poll_at out: another worker will not poll it meanwhile.
        const { rows } = await db.query(
          `UPDATE executions SET next_poll_at = now() + interval '60 seconds'
            WHERE id IN (SELECT id FROM executions
                          WHERE deployment_id IS NOT NULL AND next_poll_at <= now()
                          ORDER BY next_poll_at LIMIT $1 FOR UPDATE SKIP LOCKED)
            RETURNING id, (remote->>'interval_ms')::int AS interval_ms`,
          [concurrency],
          IdRow.extend({ interval_ms: num.nullable() }),
        );
        failing = false;
        found = rows.length > 0;
        await Promise.all(rows.map((r) => pollOne(r.id, r.interval_ms || FAST_MS)));
        if (rows.length === concurrency) continue;
      } catch (err) {
        // A database outage is reported once by the Db; back off quietly meanwhile.
        if (!isConnectionError(err)) log(`[remote] cannot poll: ${errorMessage(err)}`);
        failing = true;
      }
      // A remote run started, a webhook or a resume asks for a poll now (NOTIFY).
      await napper.nap(failing ? 2_000 : naps.after(found));
    }
  })();

  return {
    async stop() {
      stopping = true;
      napper.wake();
      await loop;
    },
  };
}
