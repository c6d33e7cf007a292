import type { LanguageModelV3 } from "@ai-sdk/provider";
import { wrapLanguageModel } from "ai";
import type { Db } from "@/lib/db/types";
import { loadModelPrices, priceFor } from "@/lib/run-model/pricing";
import type { ExecutionWriter } from "@/lib/runs/execution-writer";
import {
  addSpend,
  BUDGET_STOPPER,
  budgetOfRun,
  budgetReached,
  readBudget,
} from "@/lib/runs/spend-budgets";
import { stopRun } from "@/lib/runs/stop-execution";

/** The model call refused: the run's budget is spent, and the run has been stopped for it. */
class BudgetReached extends Error {
  // Named as an abort, so a model call's retries give up on it at once.
  override name = "AbortError";
}

/**
 * The model of a run under a spend budget (lib/runs/spend-budgets.ts): each call first reads the
 * budget and, once it is spent, stops the run ("Budget reached: …") instead of calling; each call
 * made adds its tokens and estimated cost when it returns. A run under no budget pays one lookup
 * for its agent's task, then nothing.
 */
export function budgetedModel(
  model: LanguageModelV3,
  {
    db,
    executionId,
    modelId,
    writer,
  }: {
    db: Db;
    executionId: string;
    modelId: string;
    writer: ExecutionWriter;
  },
): LanguageModelV3 {
  let budget: Promise<string | null> | undefined;
  const before = async () => {
    budget ??= budgetOfRun(db, executionId);
    const id = await budget;
    if (!id) return null;
    const row = await readBudget(db, id);
    const reached = row && budgetReached(row);
    if (reached) {
      // What the run recorded so far is stored before it is stopped, its tokens included.
      await writer.flush().catch(() => undefined);
      await stopRun(db, executionId, BUDGET_STOPPER, reached);
      throw new BudgetReached(reached);
    }
    return id;
  };
  const after = async (
    id: string | null,
    usage: { inputTokens: { total?: number }; outputTokens: { total?: number } },
  ) => {
    if (!id) return;
    const input_tokens = usage.inputTokens.total ?? 0;
    const output_tokens = usage.outputTokens.total ?? 0;
    // Unpriced models cost nothing here, as in a run's estimated cost.
    const price = priceFor(modelId, await loadModelPrices(db));
    const cost_usd = price
      ? (input_tokens * price.input + output_tokens * price.output) / 1_000_000
      : 0;
    await addSpend(db, id, { tokens: input_tokens + output_tokens, cost_usd });
  };
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: "v3",
      wrapGenerate: async ({ doGenerate }) => {
        const id = await before();
        const result = await doGenerate();
        await after(id, result.usage);
        return result;
      },
      // The engine does not stream; a stream is let through while the budget lasts.
      wrapStream: async ({ doStream }) => {
        await before();
        return doStream();
      },
    },
  });
}
