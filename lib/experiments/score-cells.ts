import { z } from "zod";
import type { AgentDef, CrewDef, TaskDef } from "@/lib/crew/schema";
import { jsonArray, jsonObject, time } from "@/lib/db/columns";
import type { Db } from "@/lib/db/types";
import { loadModelPrices, tasksCost } from "@/lib/run-model/pricing";
import type { TaskState } from "@/lib/run-model/types";
import { BUDGET_STOPPER } from "@/lib/runs/spend-budgets";
import { type InputValue, interpolate, PlaceholderBudgetError } from "@/lib/util/placeholders";
import type { ExperimentSpec } from "./experiment-view";
import { judgeOutput } from "./judge";
import { type JudgeBudget, judgeBudget } from "./judge-budget";
import {
  builtInScores,
  cellMetrics,
  checkScore,
  type RunOutcome,
  type Score,
  scoredText,
} from "./scorers";
import { variantCrew } from "./variant-crews";

// A cell whose run has ended is scored once: the built-in measures, each check, each judge. The
// write is conditional on the cell still running, so a second worker scoring it changes nothing.

const Finished = z.object({
  n: z.number(),
  variant: z.string(),
  expected: jsonObject<Record<string, string>>(),
  inputs: jsonObject<Record<string, InputValue>>(),
  execution_id: z.string().nullable(),
  status: z.string().nullable(),
  result: z.string().nullable(),
  tasks: jsonArray<TaskState>().nullable(),
  started_at: time.nullable(),
  finished_at: time.nullable(),
  total_tokens: z.number().nullable(),
});
const Guardrail = z.object({ execution_id: z.string(), task_id: z.string(), type: z.string() });

/** Scores up to `limit` of the experiment's cells whose runs have ended; how many it scored. */
export async function scoreFinishedCells(
  db: Db,
  exp: { id: string; spec: ExperimentSpec },
  defs: Map<string, CrewDef>,
  limit = 32,
): Promise<number> {
  const { rows } = await db.query(
    `SELECT c.n, c.variant, c.expected, c.inputs, c.execution_id, e.status, e.result, e.tasks, e.started_at,
            e.finished_at, (e.token_usage->>'total_tokens')::float AS total_tokens
       FROM experiment_cells c LEFT JOIN executions e ON e.id = c.execution_id
      WHERE c.experiment_id = $1 AND c.status = 'running'
        AND (e.id IS NULL OR e.status IN ('completed', 'error')
             OR (e.status = 'cancelled' AND e.stopped_by IS DISTINCT FROM $3))
      ORDER BY c.n LIMIT $2`,
    // A run its budget stopped is not scored as a failure: the budget's end skips its cell.
    [exp.id, limit, BUDGET_STOPPER],
    Finished,
  );
  if (!rows.length) return 0;
  const ids = rows.flatMap((r) => (r.execution_id ? [r.execution_id] : []));
  const { rows: checks } = await db.query(
    `SELECT execution_id, task_id, type FROM execution_events
      WHERE execution_id = ANY($1::uuid[]) AND type IN ('guardrail_passed', 'guardrail_failed')
      ORDER BY execution_id, seq`,
    [ids],
    Guardrail,
  );
  const prices = await loadModelPrices(db);
  await Promise.all(
    rows.map(async (r) => {
      const guardrails: Record<string, boolean> = {};
      for (const c of checks.filter((c) => c.execution_id === r.execution_id))
        guardrails[c.task_id] = c.type === "guardrail_passed";
      const tasks = r.tasks ?? [];
      const cost = tasksCost(tasks, prices);
      const outcome: RunOutcome = {
        status: r.status ?? "deleted",
        result: r.result,
        tasks,
        latency_s:
          r.started_at && r.finished_at
            ? Math.round((r.finished_at.getTime() - r.started_at.getTime()) / 10) / 100
            : null,
        tokens: r.total_tokens ?? 0,
        cost_usd: cost.usd,
        guardrails,
      };
      const def = variantCrew(defs, r.variant);
      const { scores, judgeTokens } = await scoresOf(
        exp.spec,
        outcome,
        def,
        r.expected,
        r.inputs,
        judgeBudget(db, exp),
      );
      const usage = {
        tokens: outcome.tokens + judgeTokens,
        judge_tokens: judgeTokens,
        cost_usd: cost.usd,
      };
      await db.query(
        `UPDATE experiment_cells SET status = 'scored', scores = $3::jsonb, usage = $4::jsonb, scored_at = now()
          WHERE experiment_id = $1 AND n = $2 AND status = 'running'`,
        [exp.id, r.n, JSON.stringify(scores), JSON.stringify(usage)],
      );
    }),
  );
  return rows.length;
}

async function scoresOf(
  spec: ExperimentSpec,
  o: RunOutcome,
  def: CrewDef,
  expected: Record<string, string>,
  inputs: Record<string, InputValue>,
  budget: JudgeBudget,
) {
  const scores: Record<string, Score> = builtInScores(o);
  let judgeTokens = 0;
  for (const m of cellMetrics(spec.scorers)) {
    const s = m.scorer;
    if (!s || s.type === "pairwise") continue;
    if (s.type !== "judge") {
      scores[m.name] = await checkScore(s, o, def, expected);
      continue;
    }
    const text = scoredText(o, s.task);
    if (text === null) {
      scores[m.name] = { value: null, reason: "no output to judge" };
      continue;
    }
    const reached = await budget.reached();
    if (reached) {
      scores[m.name] = { value: null, reason: `not judged: ${reached}` };
      continue;
    }
    const task = def.tasks.find((t) => t.id === (s.task ?? def.tasks.at(-1)?.id));
    const agent = def.agents.find((a) => a.id === task?.delegate_to || a.id === task?.agent);
    const brief = judgeBrief(task, agent, inputs);
    if ("error" in brief) {
      scores[m.name] = { value: null, reason: `not judged: ${brief.error}` };
      continue;
    }
    const v = await judgeOutput(s, brief, text, task ? expected[task.id] : undefined);
    judgeTokens += v.tokens;
    await budget.spend(v.tokens);
    scores[m.name] = { value: v.score, reason: v.reason };
  }
  return { scores, judgeTokens };
}

/** What the judge reads of the task, inputs filled in, or why not (a text past its budget). */
function judgeBrief(
  task: TaskDef | undefined,
  agent: AgentDef | undefined,
  inputs: Record<string, InputValue>,
) {
  const fill = (text: string, field: string) => interpolate(text, inputs, { field });
  try {
    return {
      description: fill(task?.description ?? "", `Task '${task?.id}' description`),
      expected_output: fill(task?.expected_output ?? "", `Task '${task?.id}' expected_output`),
      agent: agent ? fill(agent.role, `Agent '${agent.id}' role`) : undefined,
    };
  } catch (err) {
    if (err instanceof PlaceholderBudgetError) return { error: err.message };
    throw err;
  }
}
