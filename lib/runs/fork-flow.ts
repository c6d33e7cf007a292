import { z } from "zod";
import type { CrewDef, FlowPlan } from "@/lib/crew/schema";
import { jsonObject, num } from "@/lib/db/columns";
import type { Db } from "@/lib/db/types";
import {
  afterMethod,
  type FlowProgress,
  initialProgress,
  startNext,
} from "@/lib/run-model/flow-progress";
import type { TaskState } from "@/lib/run-model/types";
import { isRecord } from "@/lib/util/field";
import { editedMark, inheritedTask, refuse } from "./fork-tasks";
import type { ExecutionSummary } from "./get-execution";

const EventRow = z.object({
  type: z.string(),
  task_id: z.string().nullable(),
  data: jsonObject<Record<string, unknown>>(),
  seq: num,
});

type Inherited = { method: string; output: unknown; text: string; attempts: number };
type Edit = { task_id: string; output: string } | undefined;
type Step = FlowProgress["steps"][number];

/**
 * The origin's path before the first run of `fromMethod` (or before the method the run is in
 * now: its path before it is done), which the fork inherits; refused when there is none.
 */
export function pathBefore(
  plan: FlowPlan,
  flow: Pick<FlowProgress, "steps" | "current">,
  fromMethod: string,
  edit: Edit,
): Step[] {
  const path = flow.steps;
  if (!plan.methods.some((m) => m.name === fromMethod))
    throw refuse(
      "from_task",
      `no method '${fromMethod}'`,
      `This flow has no method '${fromMethod}' (${plan.methods.map((m) => m.name).join(", ")}).`,
    );
  const found = path.findIndex((s) => s.method === fromMethod);
  const at = found < 0 && flow.current?.method === fromMethod ? path.length : found;
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
  return before;
}

/** What the origin's events kept: the state each flow run left, each method's output texts. */
type Records = {
  stateAfter: Map<number, Record<string, unknown> | undefined>;
  texts: Map<string, string[]>;
};

export function recordsOf(rows: z.infer<typeof EventRow>[]): Records {
  const stateAfter = new Map(
    rows
      .filter((e) => e.type === "flow_method_finished")
      .map((e) => [Number(e.data.flow_run), isRecord(e.data.state) ? e.data.state : undefined]),
  );
  const texts = new Map<string, string[]>();
  for (const e of rows)
    if (e.type === "task_completed" && e.task_id)
      texts.set(e.task_id, [...(texts.get(e.task_id) ?? []), String(e.data.output ?? "")]);
  return { stateAfter, texts };
}

async function recordsOfRun(db: Db, id: string): Promise<Records> {
  const { rows } = await db.query(
    `SELECT type, task_id, data, seq FROM execution_events
      WHERE execution_id = $1 AND type IN ('flow_method_finished', 'task_completed') ORDER BY seq`,
    [id],
    EventRow,
  );
  return recordsOf(rows);
}

/**
 * The flow replayed step by step along `before`, as it went (each method's outcome sets off the
 * same listeners), each step leaving the state the origin's left; refused where the flow as it
 * is now would take another path. With each method's inherited output.
 */
export function replayPath(
  plan: FlowPlan,
  origin: { steps: Step[]; outputs: Record<string, unknown> },
  before: Step[],
  records: Records,
  edit: Edit,
  now: Date,
): { flow: FlowProgress; inherited: Inherited[] } {
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
    const once = origin.steps.filter((s) => s.method === step.method).length === 1;
    const text = records.texts.get(step.method)?.[nth] ?? "";
    const edited =
      edit?.task_id === step.method && !before.slice(i + 1).some((s) => s.method === step.method);
    // The value itself where the origin's last output of the method is this run's; else its text.
    const output = edited ? edit.output : once ? origin.outputs[step.method] : text;
    inherited.push({ method: step.method, output, text: edited ? edit.output : text, attempts: 1 });
    p = afterMethod(plan, ended(p, step, output), step.method, step.outcome);
    p.state = records.stateAfter.get(step.run) ?? p.state;
  }
  return { flow: p, inherited };
}

/** The progress once `step` has finished with `output`. */
const ended = (p: FlowProgress, step: Step, output: unknown): FlowProgress => ({
  ...p,
  outputs: { ...p.outputs, [step.method]: output },
  last_output: output,
  current: null,
  completed: [...new Set([...p.completed, step.method])],
  steps: [...p.steps, step],
});

/**
 * Where a fork of a flow starts: the path the origin took up to the first run of `fromMethod`,
 * replayed step by step as the flow itself went, with the state each step left (kept in its
 * flow_method_finished event) and each method's output. The fork goes on from there: its queue
 * holds `fromMethod` next.
 */
export async function flowForkStart(
  db: Db,
  crew: CrewDef,
  origin: ExecutionSummary,
  fromMethod: string,
  edit: Edit,
  now: Date,
): Promise<{ flow: FlowProgress; inherited: Inherited[] }> {
  const plan = crew.flow;
  if (!plan || !origin.flow)
    throw refuse("from_task", "not a flow run", "This run is not a flow's.");
  const before = pathBefore(plan, origin.flow, fromMethod, edit);
  const records = await recordsOfRun(db, origin.id);
  const replayed = replayPath(plan, origin.flow, before, records, edit, now);
  if (replayed.flow.queue[0]?.method !== fromMethod)
    throw refuse(
      "from_task",
      "its path cannot be replayed",
      `The flow as it is now would not run '${fromMethod}' next. Re-run it instead.`,
    );
  return replayed;
}

/** One `task_inherited` event per method inherited, with its last output (the fork's start). */
export function flowInheritedEvents(
  inherited: Inherited[],
  origin: { id: string; by: string },
  edit: Edit,
) {
  const last = [...new Map(inherited.map((x) => [x.method, x])).values()];
  return last.map((x) => ({
    type: "task_inherited",
    task_id: x.method,
    attempt: x.attempts,
    data: {
      from: origin.id,
      by: origin.by,
      name: x.method,
      output: x.text,
      ...editedMark(edit, x.method),
    },
  }));
}

/** The fork's tasks (a flow's methods): those inherited completed with their last output. */
export function inheritedTasks(fresh: TaskState[], inherited: Inherited[], now: string) {
  const last = new Map(inherited.map((x) => [x.method, x]));
  return fresh.map((t): TaskState => {
    const had = last.get(t.task_id);
    return had ? inheritedTask(t, { attempts: had.attempts, output: had.text }, now) : t;
  });
}
