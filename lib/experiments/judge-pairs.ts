import { z } from "zod";
import type { CrewDef, TaskDef } from "@/lib/crew/schema";
import { jsonArray, jsonObject } from "@/lib/db/columns";
import type { Db } from "@/lib/db/types";
import type { TaskState } from "@/lib/run-model/types";
import { type InputValue, interpolate, PlaceholderBudgetError } from "@/lib/util/placeholders";
import type { Claimed } from "./claim";
import { pairScorers } from "./experiment-view";
import { judgePair } from "./judge";
import { judgeBudget } from "./judge-budget";
import { variantCrew } from "./variant-crews";

const PER_STEP = 8;

const Pair = z.object({
  row_position: z.number(),
  repeat: z.number(),
  inputs: jsonObject<Record<string, InputValue>>(),
  a_result: z.string().nullable(),
  b_result: z.string().nullable(),
  a_tasks: jsonArray<TaskState>().nullable(),
  b_tasks: jsonArray<TaskState>().nullable(),
});

const outputOf = (result: string | null, tasks: TaskState[] | null, task?: string) =>
  task ? (tasks?.find((t) => t.task_id === task)?.output ?? null) : result;

/**
 * The pairwise judges' verdicts on each row and repeat both variants finished: a few per step,
 * each written once (its key is the experiment, metric, row and repeat). True when none is left.
 */
export async function judgePairs(db: Db, exp: Claimed, defs: Map<string, CrewDef>) {
  let left = false;
  const budget = judgeBudget(db, exp);
  for (const { name, scorer } of pairScorers(exp.spec.scorers)) {
    const [a, b] = scorer.variants;
    const { rows } = await db.query(
      `SELECT ca.row_position, ca.repeat, ca.inputs, ea.result AS a_result, eb.result AS b_result,
              ea.tasks AS a_tasks, eb.tasks AS b_tasks
         FROM experiment_cells ca
         JOIN experiment_cells cb ON cb.experiment_id = ca.experiment_id
              AND cb.row_position = ca.row_position AND cb.repeat = ca.repeat AND cb.variant = $3
         LEFT JOIN executions ea ON ea.id = ca.execution_id
         LEFT JOIN executions eb ON eb.id = cb.execution_id
        WHERE ca.experiment_id = $1 AND ca.variant = $2 AND ca.status = 'scored' AND cb.status = 'scored'
          AND NOT EXISTS (SELECT 1 FROM experiment_pairs p WHERE p.experiment_id = $1 AND p.metric = $4
                             AND p.row_position = ca.row_position AND p.repeat = ca.repeat)
        ORDER BY ca.repeat, ca.row_position LIMIT $5`,
      [exp.id, a, b, name, PER_STEP + 1],
      Pair,
    );
    if (rows.length > PER_STEP) left = true;
    const def = variantCrew(defs, a);
    const task = def.tasks.find((t) => t.id === (scorer.task ?? def.tasks.at(-1)?.id));
    await Promise.all(
      rows.slice(0, PER_STEP).map(async (r) => {
        // Not judged once the budget is spent: left for the next step, which ends the experiment.
        if (await budget.reached()) {
          left = true;
          return;
        }
        const one = outputOf(r.a_result, r.a_tasks, scorer.task);
        const two = outputOf(r.b_result, r.b_tasks, scorer.task);
        const brief = pairBrief(task, r.inputs);
        const verdict =
          one === null || two === null
            ? { winner: null, reason: "one of the runs has no output to compare", tokens: 0 }
            : "error" in brief
              ? { winner: null, reason: `not judged: ${brief.error}`, tokens: 0 }
              : await judgePair(scorer, brief, one, two);
        await budget.spend(verdict.tokens);
        await db.query(
          `INSERT INTO experiment_pairs (experiment_id, metric, row_position, repeat, verdict)
           VALUES ($1, $2, $3, $4, $5::jsonb) ON CONFLICT DO NOTHING`,
          [exp.id, name, r.row_position, r.repeat, JSON.stringify(verdict)],
        );
      }),
    );
  }
  return !left;
}

/** What the judge reads of the task, inputs filled in, or why not (a text past its budget). */
function pairBrief(task: TaskDef | undefined, inputs: Record<string, InputValue>) {
  const fill = (text: string, field: string) => interpolate(text, inputs, { field });
  try {
    return {
      description: fill(task?.description ?? "", `Task '${task?.id}' description`),
      expected_output: fill(task?.expected_output ?? "", `Task '${task?.id}' expected_output`),
    };
  } catch (err) {
    if (err instanceof PlaceholderBudgetError) return { error: err.message };
    throw err;
  }
}
