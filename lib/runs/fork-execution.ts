import { type Principal, principalName } from "@/lib/auth/principal";
import type { KickoffRequest } from "@/lib/contract/crew";
import type { CrewDef } from "@/lib/crew/schema";
import type { Db } from "@/lib/db/types";
import type { TaskState } from "@/lib/run-model/types";
import { createExecution, initialTasks } from "./create-execution";
import { flowForkStart, flowInheritedEvents, inheritedTasks } from "./fork-flow";
import {
  assertLocalOrigin,
  type ForkEdit,
  forkedTasks,
  forkPoint,
  inheritedEvents,
  inheritedStates,
} from "./fork-tasks";
import { type ExecutionSummary, getExecutionOrThrow } from "./get-execution";

type ForkFrom = {
  db: Db;
  crew: CrewDef;
  origin: ExecutionSummary;
  fromTask: string;
  edit: ForkEdit | undefined;
  by: string;
  fresh: TaskState[];
};

/** A flow's fork: its path replayed up to `fromTask`, one event per method inherited. */
async function flowFirst({ db, crew, origin, fromTask, edit, by, fresh }: ForkFrom) {
  const now = new Date();
  const { flow, inherited } = await flowForkStart(db, crew, origin, fromTask, edit, now);
  return {
    tasks: inheritedTasks(fresh, inherited, now.toISOString()),
    flow,
    events: flowInheritedEvents(inherited, { id: origin.id, by }, edit),
  };
}

/** A crew's fork: the tasks before `fromTask` taken from the origin, each with its event. */
function crewFirst({ crew, origin, fromTask, edit, by, fresh }: Omit<ForkFrom, "db">) {
  const before = crew.tasks.slice(0, forkPoint(crew, fromTask));
  const inherited = inheritedStates(before, origin.tasks, fromTask, edit);
  const now = new Date().toISOString();
  return {
    tasks: forkedTasks(fresh, inherited, edit, now),
    events: inheritedEvents(before, inherited, { id: origin.id, by }, edit),
  };
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
  edit?: ForkEdit;
  request: Omit<KickoffRequest, "inputs">;
}): Promise<string> {
  const origin = await getExecutionOrThrow({ db, crew: crew.slug, id: originId, principal });
  assertLocalOrigin(origin);
  const from = {
    crew,
    origin,
    fromTask,
    edit,
    by: principalName(principal),
    fresh: initialTasks(crew),
  };
  const first = crew.flow ? await flowFirst({ db, ...from }) : crewFirst(from);
  return createExecution({
    db,
    crew,
    principal,
    request: { ...request, inputs: origin.inputs, meta: request.meta ?? origin.meta ?? undefined },
    origin: { id: origin.id, kind: "fork" },
    first,
  });
}
