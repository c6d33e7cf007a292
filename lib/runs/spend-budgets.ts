import { z } from "zod";
import { num } from "@/lib/db/columns";
import type { Db, Queryable } from "@/lib/db/types";

// A budget several runs draw on (an experiment's): every model call of a run under it is let
// through only while the spend recorded is under its limits, and adds what it used as soon as it
// returns. So a budget is overshot by at most the calls in flight when it is crossed, however
// often its owner looks, and the spend it records is what the calls used (judges add theirs).

export type SpendLimits = { max_tokens?: number; max_cost_usd?: number };
export type Spent = { tokens: number; cost_usd: number };

/** Who the runs a budget stops were stopped by (`stopped_by`). */
export const BUDGET_STOPPER = "budget";

const BudgetRow = z.object({
  max_tokens: z.number().nullable(),
  max_cost_usd: z.number().nullable(),
  tokens: num,
  cost_usd: num,
});
export type BudgetRow = z.infer<typeof BudgetRow>;

/** Makes the budget unless it exists, its spend so far `spent` (what came before it, if any). */
export async function openBudget(
  q: Queryable,
  id: string,
  limits: SpendLimits,
  spent: Spent = { tokens: 0, cost_usd: 0 },
) {
  await q.query(
    `INSERT INTO spend_budgets (id, max_tokens, max_cost_usd, tokens, cost_usd)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`,
    [id, limits.max_tokens ?? null, limits.max_cost_usd ?? null, spent.tokens, spent.cost_usd],
  );
}

/** Puts a run (and the runs nested under it) under the budget. */
export async function joinBudget(q: Queryable, executionId: string, budgetId: string) {
  await q.query(
    "INSERT INTO spend_budget_runs (execution_id, budget_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
    [executionId, budgetId],
  );
}

export async function readBudget(q: Queryable, id: string): Promise<BudgetRow | null> {
  const { rows } = await q.query(
    "SELECT max_tokens, max_cost_usd, tokens, cost_usd FROM spend_budgets WHERE id = $1",
    [id],
    BudgetRow,
  );
  return rows[0] ?? null;
}

/** Adds what a call used. */
export async function addSpend(q: Queryable, id: string, spent: Spent) {
  if (!spent.tokens && !spent.cost_usd) return;
  await q.query(
    "UPDATE spend_budgets SET tokens = tokens + $2, cost_usd = cost_usd + $3 WHERE id = $1",
    [id, spent.tokens, spent.cost_usd],
  );
}

/** The sentence saying the budget is spent, or null while it is not. */
export function budgetReached(b: BudgetRow): string | null {
  if (b.max_tokens !== null && b.tokens >= b.max_tokens)
    return `Budget reached: ${Math.round(b.tokens)} of ${b.max_tokens} tokens used.`;
  if (b.max_cost_usd !== null && b.cost_usd >= b.max_cost_usd)
    return `Budget reached: $${b.cost_usd.toFixed(4)} of $${b.max_cost_usd} used.`;
  return null;
}

/** The budget a run draws on: its own, else the nearest of the runs it is nested in. */
export async function budgetOfRun(db: Db, executionId: string): Promise<string | null> {
  const { rows } = await db.query(
    `WITH RECURSIVE up (id, parent_id, depth) AS (
       SELECT id, parent_id, 0 FROM executions WHERE id = $1
       UNION ALL
       SELECT e.id, e.parent_id, up.depth + 1 FROM executions e JOIN up ON e.id = up.parent_id
        WHERE up.depth < 16)
     SELECT m.budget_id FROM up JOIN spend_budget_runs m ON m.execution_id = up.id
      ORDER BY up.depth LIMIT 1`,
    [executionId],
    z.object({ budget_id: z.string() }),
  );
  return rows[0]?.budget_id ?? null;
}
