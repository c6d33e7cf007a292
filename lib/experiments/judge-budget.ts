import type { Db } from "@/lib/db/types";
import { addSpend, budgetReached, readBudget } from "@/lib/runs/spend-budgets";
import type { ExperimentSpec } from "./experiment-view";

export type JudgeBudget = ReturnType<typeof judgeBudget>;

/**
 * The experiment's spend budget as its judges use it: a judge is asked only while the budget
 * lasts, and its tokens count as soon as it answers, as a run's model calls do.
 */
export function judgeBudget(db: Db, exp: { id: string; spec: ExperimentSpec }) {
  const { max_tokens, max_cost_usd } = exp.spec.budget;
  const limited = max_tokens !== undefined || max_cost_usd !== undefined;
  return {
    /** The sentence saying it is spent, or null while it lasts. */
    async reached(): Promise<string | null> {
      const b = limited ? await readBudget(db, exp.id) : null;
      return b && budgetReached(b);
    },
    async spend(tokens: number) {
      if (limited) await addSpend(db, exp.id, { tokens, cost_usd: 0 });
    },
  };
}
