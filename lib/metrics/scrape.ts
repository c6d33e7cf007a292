import { z } from "zod";
import { num } from "@/lib/db/columns";
import type { Queryable } from "@/lib/db/types";
import { metrics } from "./registry";

const LIVE = ["queued", "running", "pending_human_input"] as const;

/**
 * The exposition text for one scrape. Queue depth, the oldest queued run's age and the runs in
 * progress are read from the database now: every instance sharing it reports the same figures
 * (take `max`, not `sum`, across instances); the counters are this process's own.
 */
export async function renderMetrics(db: Queryable): Promise<{ contentType: string; body: string }> {
  const m = metrics();
  const { rows } = await db.query(
    `SELECT status, count(*)::int AS n,
            EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS oldest
       FROM executions
      WHERE status IN ('queued', 'running', 'pending_human_input') AND deployment_id IS NULL
      GROUP BY status`,
    [],
    z.object({ status: z.string(), n: num, oldest: num.nullable() }),
  );
  const by = new Map(rows.map((r) => [r.status, r]));
  for (const status of LIVE) m.executions.set({ status }, by.get(status)?.n ?? 0);
  m.queueDepth.set(by.get("queued")?.n ?? 0);
  m.oldestQueued.set(Math.max(0, by.get("queued")?.oldest ?? 0));
  return { contentType: m.registry.contentType, body: await m.registry.metrics() };
}
