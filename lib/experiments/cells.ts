import { z } from "zod";
import { jsonArray, jsonObject } from "@/lib/db/columns";
import type { Queryable } from "@/lib/db/types";
import type { TaskState } from "@/lib/run-model/types";
import type { Score } from "./scorers";

const CellRow = z.object({
  n: z.number(),
  variant: z.string(),
  row_position: z.number(),
  repeat: z.number(),
  status: z.enum(["pending", "running", "scored", "skipped"]),
  execution_id: z.string().nullable(),
  inputs: jsonObject<Record<string, unknown>>(),
  expected: jsonObject<Record<string, string>>(),
  scores: jsonObject<Record<string, Score>>().nullable(),
  result: z.string().nullable(),
  tasks: jsonArray<TaskState>().nullable(),
});

/** Cells one answer lists, each with its outputs: an experiment can have 10,000. */
const MAX_LISTED = 2000;

/** An experiment's cells with each run's outputs (by task, and `result`) and scores. */
export async function listCells(
  q: Queryable,
  id: string,
  filter: { variant?: string; row?: number },
) {
  const { rows } = await q.query(
    `SELECT c.n, c.variant, c.row_position, c.repeat, c.status, c.execution_id, c.inputs, c.expected,
            c.scores, e.result, e.tasks
       FROM experiment_cells c LEFT JOIN executions e ON e.id = c.execution_id
      WHERE c.experiment_id = $1 AND ($2::text IS NULL OR c.variant = $2)
        AND ($3::int IS NULL OR c.row_position = $3)
      ORDER BY c.row_position, c.repeat, c.n LIMIT ${MAX_LISTED}`,
    [id, filter.variant ?? null, filter.row ?? null],
    CellRow,
  );
  return rows.map((r) => {
    const outputs: Record<string, string> = {};
    for (const t of r.tasks ?? []) if (t.output !== null) outputs[t.task_id] = t.output;
    if (r.result !== null) outputs.result = r.result;
    return {
      n: r.n,
      variant: r.variant,
      row: r.row_position,
      repeat: r.repeat,
      status: r.status,
      execution_id: r.execution_id,
      inputs: r.inputs,
      expected: r.expected,
      outputs,
      scores: r.scores ?? {},
    };
  });
}
