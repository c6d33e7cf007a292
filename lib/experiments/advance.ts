import { z } from "zod";
import type { KickoffRequest } from "@/lib/contract/crew";
import type { CrewDef } from "@/lib/crew/schema";
import { jsonObject, num } from "@/lib/db/columns";
import { notifyCommitted } from "@/lib/db/group-commit";
import type { Db } from "@/lib/db/types";
import { AppError, errorMessage } from "@/lib/errors";
import { createExecutionIn } from "@/lib/runs/create-execution";
import { invalidateExecution } from "@/lib/runs/execution-cache";
import { budgetReached, joinBudget, openBudget, readBudget } from "@/lib/runs/spend-budgets";
import { stopWithNestedIn } from "@/lib/runs/stop-execution";
import type { Claimed } from "./claim";
import { judgePairs } from "./judge-pairs";
import { scoreFinishedCells } from "./score-cells";
import { pinnedCrews, variantCrew } from "./variant-crews";

// One step of a running experiment, taken by the worker holding its lease: score the cells whose
// runs ended, stop at the budget, start pending cells up to the parallelism, and end it when no
// cell is left. Every step is a conditional write, so a crash between steps loses nothing and a
// second worker repeats nothing: a cell's run is created in the transaction that marks it running.

// An experiment's variants are pinned when it is created and never change: each step would
// otherwise read every definition's text again. Read once per experiment, per process; bounded.
const pinned = new Map<string, Map<string, CrewDef>>();
const DefRow = z.object({ name: z.string(), definition: z.string() });

async function definitionsOf(db: Db, id: string): Promise<Map<string, CrewDef>> {
  const known = pinned.get(id);
  if (known) return known;
  const { rows } = await db.query(
    "SELECT name, definition FROM experiment_variants WHERE experiment_id = $1",
    [id],
    DefRow,
  );
  // The same objects every step: a run's definition JSON and key are made once (crewJson).
  const defs = pinnedCrews(rows);
  const [oldest] = pinned.keys();
  if (pinned.size >= 64 && oldest !== undefined) pinned.delete(oldest);
  pinned.set(id, defs);
  return defs;
}

export async function advanceExperiment(db: Db, exp: Claimed) {
  const defs = await definitionsOf(db, exp.id);
  await scoreFinishedCells(db, exp, defs);
  const over = await overBudget(db, exp);
  if (over) return endEarly(db, exp.id, "budget_reached", over);
  await launchCells(db, exp, defs);
  await finishIfDone(db, exp, defs);
}

const Usage = z.object({ tokens: num, cost: z.number().nullable() });
const limited = (exp: Claimed) =>
  exp.spec.budget.max_tokens !== undefined || exp.spec.budget.max_cost_usd !== undefined;

/**
 * The sentence saying the budget is spent, or null while it is not. The spend is the one its
 * runs' model calls and its judges record as they go (lib/runs/spend-budgets.ts), each call let
 * through only while it is under the budget: what a running cell spends counts at once.
 */
async function overBudget(db: Db, exp: Claimed): Promise<string | null> {
  if (!limited(exp)) return null;
  const budget = await readBudget(db, exp.id);
  if (budget) return budgetReached(budget);
  await openBudget(db, exp.id, exp.spec.budget, await spentBefore(db, exp.id));
  const opened = await readBudget(db, exp.id);
  return opened && budgetReached(opened);
}

/** What an experiment begun before spend budgets existed had used: its cells' runs and judges. */
async function spentBefore(db: Db, id: string) {
  const { rows } = await db.query(
    `SELECT coalesce(sum(CASE WHEN c.status = 'scored' THEN (c.usage->>'tokens')::float
                              ELSE coalesce((e.token_usage->>'total_tokens')::float, 0) END), 0)::float AS tokens,
            sum((c.usage->>'cost_usd')::float) AS cost
       FROM experiment_cells c LEFT JOIN executions e ON e.id = c.execution_id
      WHERE c.experiment_id = $1 AND c.status IN ('scored', 'running')`,
    [id],
    Usage,
  );
  return { tokens: rows[0]?.tokens ?? 0, cost_usd: rows[0]?.cost ?? 0 };
}

const Open = z.object({ execution_id: z.string().nullable() });

/**
 * Ends an experiment before its cells are done: pending cells skipped, running runs stopped (and
 * the runs nested in them), all in one transaction, so a process ending after its commit leaves
 * no run of it going.
 */
export async function endEarly(
  db: Db,
  id: string,
  status: "budget_reached" | "stopped",
  reason: string,
  by = "experiment",
) {
  const stopped = await db.tx(async (q) => {
    const { rowCount } = await q.query(
      `UPDATE experiments SET status = $2, stop_reason = $3, finished_at = now(), lease_owner = NULL
        WHERE id = $1 AND status = 'running'`,
      [id, status, reason],
    );
    if (!rowCount) return [];
    const { rows } = await q.query(
      `UPDATE experiment_cells SET status = 'skipped', scored_at = now()
        WHERE experiment_id = $1 AND status IN ('pending', 'running') RETURNING execution_id`,
      [id],
      Open,
    );
    const ids: string[] = [];
    for (const c of rows)
      if (c.execution_id) ids.push(...(await stopWithNestedIn(q, c.execution_id, by, reason)));
    return ids;
  });
  // This process's cached reads see the stops at once (others hear them by NOTIFY).
  for (const run of stopped) invalidateExecution(run);
}

const Pending = z.object({
  n: z.number(),
  variant: z.string(),
  row_position: z.number(),
  repeat: z.number(),
  inputs: jsonObject<KickoffRequest["inputs"]>(),
});

async function launchCells(db: Db, exp: Claimed, defs: Map<string, CrewDef>) {
  const notices = await db.tx(async (q) => {
    const { rows: live } = await q.query(
      "SELECT id FROM experiments WHERE id = $1 AND status = 'running' FOR UPDATE",
      [exp.id],
    );
    if (!live.length) return [];
    const { rows: busy } = await q.query(
      "SELECT count(*)::int AS n FROM experiment_cells WHERE experiment_id = $1 AND status = 'running'",
      [exp.id],
      z.object({ n: num }),
    );
    const free = exp.spec.parallelism - (busy[0]?.n ?? 0);
    if (free <= 0) return [];
    const { rows } = await q.query(
      `SELECT n, variant, row_position, repeat, inputs FROM experiment_cells
        WHERE experiment_id = $1 AND status = 'pending' ORDER BY n LIMIT $2`,
      [exp.id, free],
      Pending,
    );
    const all = [];
    for (const c of rows) {
      const crew = variantCrew(defs, c.variant);
      try {
        const { id, notify } = await createExecutionIn(q, {
          db,
          crew,
          principal: { kind: "org", tokenId: exp.token_id },
          request: {
            inputs: c.inputs,
            meta: {
              experiment: exp.id,
              cell: c.n,
              variant: c.variant,
              row: c.row_position,
              repeat: c.repeat,
            },
          },
          starter: {
            ownerUserId: exp.owner_user_id,
            tokenId: exp.token_id,
            via: "experiment",
            name: exp.name,
          },
        });
        await q.query(
          "UPDATE experiment_cells SET status = 'running', execution_id = $3 WHERE experiment_id = $1 AND n = $2",
          [exp.id, c.n, id],
        );
        // Its model calls (and its nested runs') draw on the experiment's budget.
        if (limited(exp)) await joinBudget(q, id, exp.id);
        all.push(...notify);
      } catch (err) {
        // Refused before anything was written (its inputs no longer fit): scored as not run.
        if (!(err instanceof AppError)) throw err;
        const scores = { completed: { value: 0, reason: `not started: ${errorMessage(err)}` } };
        await q.query(
          "UPDATE experiment_cells SET status = 'scored', scores = $3::jsonb, usage = '{\"tokens\":0}', scored_at = now() WHERE experiment_id = $1 AND n = $2",
          [exp.id, c.n, JSON.stringify(scores)],
        );
      }
    }
    return all;
  });
  notifyCommitted(db, notices);
}

async function finishIfDone(db: Db, exp: Claimed, defs: Map<string, CrewDef>) {
  const { rows } = await db.query(
    "SELECT count(*)::int AS n FROM experiment_cells WHERE experiment_id = $1 AND status IN ('pending', 'running')",
    [exp.id],
    z.object({ n: num }),
  );
  if ((rows[0]?.n ?? 0) > 0) return;
  if (!(await judgePairs(db, exp, defs))) return; // more verdicts to come at the next step
  await db.query(
    "UPDATE experiments SET status = 'completed', finished_at = now(), lease_owner = NULL WHERE id = $1 AND status = 'running'",
    [exp.id],
  );
}
