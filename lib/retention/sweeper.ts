import { env } from "@/lib/config/env";
import { crewCatalog, findCrew } from "@/lib/crew/registry";
import type { Db } from "@/lib/db/types";
import { errorMessage } from "@/lib/errors";
import { createNapper, napLoop } from "@/lib/util/napper";
import { deleteOldLedgers, deleteRunBatch } from "./delete-runs";
import { type CrewRetention, ledgerCutoff, runRules } from "./policy";
import { removeOrphanWorkspaces, removeWorkspaces } from "./workspaces";

// Between batches the sweeper rests this many times as long as the batch took: it uses at most a
// fifth of the database's (and a small core's) time, so requests keep their latency (measured by
// bench/retention.mjs: at half the time, /status p95 rose ~60-90 % on 2 cores).
const REST_FACTOR = 4;

export type SweepTotals = { runs: number; ledgers: number; workspaces: number };

/** Each crew's own retention as the catalogue says now; a crew that fails to load: unknown. */
export function crewRetentions(): Map<string, CrewRetention> {
  const catalog = crewCatalog();
  const out = new Map<string, CrewRetention>();
  for (const [slug, crew] of catalog.crews) out.set(slug, crew.retention_days);
  for (const { slug } of catalog.errors) {
    if (out.has(slug)) continue;
    // As it last loaded in this process, if it did: its setting then (absent: the default).
    const last = findCrew(slug, { existingRun: true });
    out.set(slug, last ? last.retention_days : "unknown");
  }
  return out;
}

/**
 * One pass: every rule's old finished runs, a batch per transaction until none is left, then the
 * ledgers past their own retention, then workspace folders whose run is gone, resting between
 * batches (REST_FACTOR).
 */
export async function sweepOnce({
  db,
  now = new Date(),
  batchSize = env().RETENTION_BATCH_SIZE,
  crews = crewRetentions(),
  rest = async (_ms: number) => {},
  stopping = () => false,
}: {
  db: Db;
  now?: Date;
  batchSize?: number;
  crews?: Map<string, CrewRetention>;
  rest?: (ms: number) => Promise<void>;
  stopping?: () => boolean;
}): Promise<SweepTotals> {
  const e = env();
  const totals: SweepTotals = { runs: 0, ledgers: 0, workspaces: 0 };
  const ledgerBefore = ledgerCutoff(e.LEDGER_RETENTION_DAYS, now);
  for (const rule of runRules({ defaultDays: e.RETENTION_DAYS, crews, now })) {
    while (!stopping()) {
      const started = Date.now();
      const batch = await deleteRunBatch(db, { rule, ledgerBefore, limit: batchSize });
      totals.runs += batch.runs.length;
      totals.ledgers += batch.ledgers;
      totals.workspaces += await removeWorkspaces(e.DATA_DIR, batch.runs);
      if (batch.runs.length < batchSize) break;
      await rest(REST_FACTOR * (Date.now() - started));
    }
  }
  while (ledgerBefore && !stopping()) {
    const started = Date.now();
    const n = await deleteOldLedgers(db, { before: ledgerBefore, limit: batchSize });
    totals.ledgers += n;
    if (n < batchSize) break;
    await rest(REST_FACTOR * (Date.now() - started));
  }
  if (!stopping()) totals.workspaces += await removeOrphanWorkspaces(db, e.DATA_DIR);
  return totals;
}

/** Runs a pass every `intervalMs` (RETENTION_SWEEP_MS) until stopped; in every worker process. */
export function startRetentionSweeper({
  db,
  intervalMs = env().RETENTION_SWEEP_MS,
  log = console.log,
}: {
  db: Db;
  intervalMs?: number;
  log?: (msg: string) => void;
}) {
  const napper = createNapper();
  return napLoop(napper, async (stopping) => {
    try {
      const t = await sweepOnce({ db, rest: (ms) => napper.nap(ms), stopping });
      if (t.runs || t.ledgers || t.workspaces)
        log(
          `[retention] deleted ${t.runs} finished run(s), ${t.ledgers} ledger(s) and ${t.workspaces} workspace folder(s)`,
        );
    } catch (err) {
      log(`[retention] ${errorMessage(err)}`);
    }
    return intervalMs;
  });
}
