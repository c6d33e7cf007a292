import { z } from "zod";
import type { CrewDef } from "@/lib/crew/schema";
import { jsonObject, num } from "@/lib/db/columns";
import type { Db } from "@/lib/db/types";
import { errors } from "@/lib/errors";
import {
  afterMethod,
  type FlowProgress,
  initialProgress,
  startNext,
} from "@/lib/run-model/flow-progress";
import type { TaskState } from "@/lib/run-model/types";
import type { ExecutionSummary } from "./get-execution";

const refuse = (path: string, message: string, detail: string) =>
  errors.unprocessable(detail, { errors: [{ path, message }] });

const EventRow = z.object({
  type: z.string(),
  task_id: z.string().nullable(),
  data: jsonObject<Record<string, unknown>>(),
  seq: num,
});

type Inherited = { method: string; output: unknown; text: string; attempts: number };

/**
 * Where a fork of a flow starts: the path the origin took up to the first run of `fromMethod`,
 * replayed step by step as the flow itself went (each method's outcome sets off the same
 * listeners), with the state each step left (kept in its flow_method_finished event) and each
 * method's output. The fork goes on from there: its queue holds `fromMethod` next.
 */
export async function flowForkStart(
  db: Db,
  crew: CrewDef,
  origin: ExecutionSummary,
  fromMethod: string,
  edit: { task_id: string; output: string } | undefined,
  now: Date,
): Promise<{ flow: FlowProgress; inherited: Inherited[] }> {
  const plan = crew.flow;
  const path = origin.flow?.steps ?? [];
  if (!plan || !origin.flow)
    throw refuse("from_task", "not a flow run", "This run is not a flow's.");
  if (!plan.methods.some((m) => m.name === fromMethod))
    throw refuse(
      "from_task",
      `no method '${fromMethod}'`,
      `This flow has no method '${fromMethod}' (${plan.methods.map((m) => m.name).join(", ")}).`,
    );
  // Its first run on the path; or the method the run is in now (its path before it is done).
  const found = path.findIndex((s) => s.method === fromMethod);
  const at = found < 0 && origin.flow.current?.method === fromMethod ? path.length : found;
  if (at < 0)
    throw refuse(
      "from_task",
      `'${fromMethod}' did not run`,
      `Method '${fromMethod}' did not run in that run: fork from a method on its path (${path.map((s) => s.method).join(", ")}).`,
    );
  if (at === 0)
    throw refuse(
      "from_task",
      "the first method",
      "Forking from the first method inherits nothing: re-run the run instead.",
    );
  const before = path.slice(0, at);
  if (edit && !before.some((s) => s.method === edit.task_id))
    throw refuse(
      "edit.task_id",
      `not a method before '${fromMethod}'`,
      `Only a method the fork inherits can be edited: one of ${[...new Set(before.map((s) => s.method))].join(", ")}.`,
    );
  const { rows } = await db.query(
    `SELECT type, task_id, data, seq FROM execution_events
      WHERE execution_id = $1 AND type IN ('flow_method_finished', 'task_completed') ORDER BY seq`,
    [origin.id],
    EventRow,
  );
  const stateAfter = new Map(
    rows
      .filter((e) => e.type === "flow_method_finished")
      .map((e) => [Number(e.data.flow_run), e.data.state as Record<string, unknown>]),
  );
  const texts = new Map<string, string[]>();
  for (const e of rows)
    if (e.type === "task_completed" && e.task_id)
      texts.set(e.task_id, [...(texts.get(e.task_id) ?? []), String(e.data.output ?? "")]);

  let p = initialProgress(plan, {});
  const inherited: Inherited[] = [];
  const runsOf = new Map<string, number>();
  for (const [i, step] of before.entries()) {
    p = startNext(plan, p, now);
    if (p.current?.method !== step.method)
      throw refuse(
        "from_task",
        "its path cannot be replayed",
        `The flow as it is now would not run '${step.method}' at step ${i + 1}: it changed since that run. Re-run it instead.`,
      );
    const nth = runsOf.get(step.method) ?? 0;
    runsOf.set(step.method, nth + 1);
    const once = path.filter((s) => s.method === step.method).length === 1;
    const text = texts.get(step.method)?.[nth] ?? "";
    const edited =
      edit?.task_id === step.method && !before.slice(i + 1).some((s) => s.method === step.method);
    // The value itself where the origin's last output of the method is this run's; else its text.
    const output = edited ? edit.output : once ? origin.flow.outputs[step.method] : text;
    inherited.push({ method: step.method, output, text: edited ? edit.output : text, attempts: 1 });
    const ended: FlowProgress = {
      ...p,
      outputs: { ...p.outputs, [step.method]: output },
      last_output: output,
      current: null,
      completed: [...new Set([...p.completed, step.method])],
      steps: [...p.steps, step],
    };
    p = afterMethod(plan, ended, step.method, step.outcome);
    p.state = stateAfter.get(step.run) ?? p.state;
  }
  if (p.queue[0]?.method !== fromMethod)
    throw refuse(
      "from_task",
      "its path cannot be replayed",
      `The flow as it is now would not run '${fromMethod}' next. Re-run it instead.`,
    );
  return { flow: p, inherited };
}

/** The fork's tasks (a flow's methods): those inherited completed with their last output. */
export function inheritedTasks(fresh: TaskState[], inherited: Inherited[], now: string) {
  const last = new Map(inherited.map((x) => [x.method, x]));
  return fresh.map((t): TaskState => {
    const had = last.get(t.task_id);
    if (!had) return t;
    return {
      ...t,
      status: "completed",
      attempts: had.attempts,
      output: had.text,
      started_at: now,
      finished_at: now,
      execution_time: 0,
    };
  });
}
