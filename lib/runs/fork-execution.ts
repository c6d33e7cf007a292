import { type Principal, principalName } from "@/lib/auth/principal";
import type { KickoffRequest } from "@/lib/contract/crew";
import type { CrewDef } from "@/lib/crew/schema";
import type { Db } from "@/lib/db/types";
import { errors } from "@/lib/errors";
import type { TaskState } from "@/lib/run-model/types";
import { createExecution, crewJson } from "./create-execution";
import { flowForkStart, inheritedTasks } from "./fork-flow";
import { getExecutionOrThrow } from "./get-execution";

const refuse = (path: string, message: string, detail: string) =>
  errors.unprocessable(detail, { errors: [{ path, message }] });

/** Where a run may start from: a task after the first, not inside a group of async tasks. */
function forkPoint(crew: CrewDef, taskId: string): number {
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

/**
 * A new run of the crew that starts at `fromTask`: the tasks before it are taken from the origin
 * (never run again; each says so with a `task_inherited` event naming the origin, recorded in the
 * ledger), one of them optionally edited first, as a reviewer's edit is. The origin's inputs and
 * meta; the crew's current definition.
 */
export async function forkExecution({
  db,
  crew,
  principal,
  originId,
  fromTask,
  edit,
  request,
}: {
  db: Db;
  crew: CrewDef;
  principal: Principal;
  originId: string;
  fromTask: string;
  edit?: { task_id: string; output: string };
  request: Omit<KickoffRequest, "inputs">;
}): Promise<string> {
  const origin = await getExecutionOrThrow({ db, crew: crew.slug, id: originId, principal });
  if (origin.deployment_id)
    throw refuse(
      "from_task",
      "a remote deployment's run",
      "A remote deployment's run cannot be forked: its tasks ran there. Re-run it instead.",
    );
  const by = principalName(principal);
  const fresh = JSON.parse(crewJson(crew).tasks) as TaskState[];
  const start = {
    ...request,
    inputs: origin.inputs as KickoffRequest["inputs"],
    meta: request.meta ?? origin.meta ?? undefined,
  };
  if (crew.flow) {
    const now = new Date();
    const { flow, inherited } = await flowForkStart(db, crew, origin, fromTask, edit, now);
    // One event per method inherited, with its last output (the one the fork goes on from).
    const last = [...new Map(inherited.map((x) => [x.method, x])).values()];
    return createExecution({
      db,
      crew,
      principal,
      request: start,
      origin: { id: origin.id, kind: "fork" },
      first: {
        tasks: inheritedTasks(fresh, inherited, now.toISOString()),
        flow,
        events: last.map((x) => ({
          type: "task_inherited",
          task_id: x.method,
          attempt: x.attempts,
          data: {
            from: origin.id,
            by,
            name: x.method,
            output: x.text,
            ...(edit?.task_id === x.method ? { edited: true, edited_output: edit.output } : {}),
          },
        })),
      },
    });
  }
  const index = forkPoint(crew, fromTask);
  const before = crew.tasks.slice(0, index);
  const done = new Map(origin.tasks.map((t) => [t.task_id, t]));
  for (const t of before) {
    const had = done.get(t.id);
    if (had?.status !== "completed" || had.output === null)
      throw refuse(
        "from_task",
        `'${t.id}' did not complete in that run`,
        `Task '${t.id}' had not completed in the run forked from: fork from '${t.id}' or earlier.`,
      );
  }
  if (edit && !before.some((t) => t.id === edit.task_id))
    throw refuse(
      "edit.task_id",
      `not a task before '${fromTask}'`,
      `Only a task the fork inherits can be edited: one of ${before.map((t) => t.id).join(", ")}.`,
    );

  const now = new Date().toISOString();
  // An inherited task took no time and no tokens here: its cost was the origin's, counted there.
  const tasks = fresh.map((t, i): TaskState => {
    const had = i < index ? done.get(t.task_id) : undefined;
    if (!had) return t;
    return {
      ...t,
      status: "completed",
      attempts: had.attempts,
      output: edit?.task_id === t.task_id ? edit.output : (had.output as string),
      reviews: had.reviews,
      started_at: now,
      finished_at: now,
      execution_time: 0,
    };
  });
  const events = before.map((t) => {
    const had = done.get(t.id);
    const edited = edit?.task_id === t.id;
    return {
      type: "task_inherited",
      task_id: t.id,
      attempt: had?.attempts || 1,
      data: {
        from: origin.id,
        by,
        name: t.name,
        output: had?.output ?? "",
        ...(edited ? { edited: true, edited_output: edit.output } : {}),
      },
    };
  });
  return createExecution({
    db,
    crew,
    principal,
    request: start,
    origin: { id: origin.id, kind: "fork" },
    first: { tasks, events },
  });
}
