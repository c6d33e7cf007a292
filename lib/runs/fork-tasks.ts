import type { CrewDef, TaskDef } from "@/lib/crew/schema";
import { errors } from "@/lib/errors";
import type { TaskState } from "@/lib/run-model/types";

// A crew fork's decisions, apart from the reads and the write: where it may start, what it
// inherits from the origin, and the tasks and events it starts with.

export const refuse = (path: string, message: string, detail: string) =>
  errors.unprocessable(detail, { errors: [{ path, message }] });

export type ForkEdit = { task_id: string; output: string };

/** An inherited task whose output a reviewer replaced first is marked so in its event. */
export const editedMark = (edit: ForkEdit | undefined, taskId: string) =>
  edit?.task_id === taskId ? { edited: true, edited_output: edit.output } : {};

/** A remote deployment's tasks ran there: nothing to inherit here. */
export function assertLocalOrigin(origin: { deployment_id: string | null }) {
  if (origin.deployment_id)
    throw refuse(
      "from_task",
      "a remote deployment's run",
      "A remote deployment's run cannot be forked: its tasks ran there. Re-run it instead.",
    );
}

/** Where a run may start from: a task after the first, not inside a group of async tasks. */
export function forkPoint(crew: CrewDef, taskId: string): number {
  const index = crew.tasks.findIndex((t) => t.id === taskId);
  if (index < 0)
    throw refuse(
      "from_task",
      `no task '${taskId}'`,
      `This crew has no task '${taskId}' (${crew.tasks.map((t) => t.id).join(", ")}).`,
    );
  if (index === 0)
    throw refuse(
      "from_task",
      "the first task",
      "Forking from the first task inherits nothing: re-run the run instead.",
    );
  // As CrewAI's checkpoints: async tasks run as a group, joined by the next synchronous task; a
  // fork starts at a group's first task or at the task that joins it, never inside the group.
  if (crew.tasks[index]?.async_execution && crew.tasks[index - 1]?.async_execution)
    throw refuse(
      "from_task",
      "inside a group of async tasks",
      `'${taskId}' runs beside the async task before it: fork from the group's first task or from the task that joins it.`,
    );
  return index;
}

type Completed = TaskState & { output: string };
const completedWithOutput = (t: TaskState | undefined): t is Completed =>
  t?.status === "completed" && t.output !== null;

/**
 * The origin's state of each task before the fork point, by id: every one must have completed
 * with an output, and an edit may only name one of them.
 */
export function inheritedStates(
  before: TaskDef[],
  originTasks: TaskState[],
  fromTask: string,
  edit: ForkEdit | undefined,
): Map<string, Completed> {
  const done = new Map(originTasks.map((t) => [t.task_id, t]));
  const inherited = new Map<string, Completed>();
  for (const t of before) {
    const had = done.get(t.id);
    if (!completedWithOutput(had))
      throw refuse(
        "from_task",
        `'${t.id}' did not complete in that run`,
        `Task '${t.id}' had not completed in the run forked from: fork from '${t.id}' or earlier.`,
      );
    inherited.set(t.id, had);
  }
  if (edit && !before.some((t) => t.id === edit.task_id))
    throw refuse(
      "edit.task_id",
      `not a task before '${fromTask}'`,
      `Only a task the fork inherits can be edited: one of ${before.map((t) => t.id).join(", ")}.`,
    );
  return inherited;
}

/**
 * The fork's tasks: those inherited completed as the origin left them (the edited one with its
 * new output). An inherited task took no time and no tokens here: its cost was the origin's.
 */
export function forkedTasks(
  fresh: TaskState[],
  inherited: Map<string, Completed>,
  edit: ForkEdit | undefined,
  now: string,
): TaskState[] {
  return fresh.map((t): TaskState => {
    const had = inherited.get(t.task_id);
    if (!had) return t;
    const output = edit?.task_id === t.task_id ? edit.output : had.output;
    return inheritedTask(t, { attempts: had.attempts, output, reviews: had.reviews }, now);
  });
}

/** A fresh task the fork inherits, completed at `now` with what the origin left: no time here. */
export function inheritedTask(
  t: TaskState,
  left: Pick<TaskState, "attempts" | "output" | "reviews">,
  now: string,
): TaskState {
  return {
    ...t,
    status: "completed",
    ...left,
    started_at: now,
    finished_at: now,
    execution_time: 0,
  };
}

/** One `task_inherited` event per task before the fork point, naming the origin. */
export function inheritedEvents(
  before: TaskDef[],
  inherited: Map<string, Completed>,
  origin: { id: string; by: string },
  edit: ForkEdit | undefined,
) {
  return before.map((t) => {
    const had = inherited.get(t.id);
    return {
      type: "task_inherited",
      task_id: t.id,
      attempt: had?.attempts || 1,
      data: {
        from: origin.id,
        by: origin.by,
        name: t.name,
        output: had?.output ?? "",
        ...editedMark(edit, t.id),
      },
    };
  });
}
