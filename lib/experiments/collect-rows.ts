import { z } from "zod";
import type { OwnerScope as Scope } from "@/lib/auth/principal";
import type { CrewDef } from "@/lib/crew/schema";
import { jsonArray, jsonObject } from "@/lib/db/columns";
import type { Queryable } from "@/lib/db/types";
import type { TaskState } from "@/lib/run-model/types";
import type { OfferedRow } from "./dataset-rows";

// Rows collected from past runs: each run's inputs, and as expected outputs what reviewers
// approved — the text they edited it to when they edited it. An output nobody approved is not
// ground truth, so a task without an approval has no expected output.

const RunRow = z.object({
  id: z.string(),
  crew: z.string(),
  owner_user_id: z.string().nullable(),
  inputs: jsonObject<Record<string, unknown>>(),
  tasks: jsonArray<TaskState>(),
});

/** The output a reviewer last approved for each task: their edit, else what the agent wrote. */
function approvedOutputs(tasks: TaskState[]): Record<string, string> {
  const expected: Record<string, string> = {};
  for (const t of tasks) {
    const approved = (t.reviews ?? []).filter((r) => r.is_approve).at(-1);
    if (approved) expected[t.task_id] = approved.edited_output ?? approved.output;
  }
  return expected;
}

/** The runs as offered rows, in the order asked; a run the caller cannot see is an error row. */
export async function rowsFromRuns(q: Queryable, crew: CrewDef, scope: Scope, ids: string[]) {
  const { rows } = await q.query(
    "SELECT id, crew, owner_user_id, inputs, tasks FROM executions WHERE id = ANY($1::uuid[])",
    [ids],
    RunRow,
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const offered: (OfferedRow & { source: string })[] = [];
  const missing: { row: number; path: string; message: string }[] = [];
  ids.forEach((id, i) => {
    const run = byId.get(id);
    if (!run || run.crew !== crew.slug || (scope.owner && run.owner_user_id !== scope.owner))
      missing.push({
        row: i + 1,
        path: "execution_ids",
        message: `no run ${id} of crew '${crew.slug}'`,
      });
    else
      offered.push({
        row: i + 1,
        inputs: run.inputs,
        expected: approvedOutputs(run.tasks),
        source: id,
      });
  });
  return { offered, missing };
}
