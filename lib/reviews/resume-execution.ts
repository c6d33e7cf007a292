import { type Principal, principalName } from "@/lib/auth/principal";
import type { ResumeRequest } from "@/lib/contract/crew";
import { IdRow } from "@/lib/db/columns";
import type { Db } from "@/lib/db/types";
import { errors } from "@/lib/errors";
import type { TaskState } from "@/lib/run-model/types";
import { invalidateExecution } from "@/lib/runs/execution-cache";
import { mutateExecution } from "@/lib/runs/execution-store";
import { getExecutionOrThrow } from "@/lib/runs/get-execution";
import { assertWebhookUrlsAllowed } from "@/lib/webhooks/check-urls";
import { personOf } from "./assignment";
import { decideResume, refuseEditsWithoutApproval } from "./resume-decision";
import type { ResumeResult } from "./resume-replays";

/**
 * Applies a reviewer's decision to a task awaiting review: approve → the task is done (under a
 * quorum, once enough people approved) and the run goes on, or completes; reject → the task runs
 * again with the feedback. A repeated identical request (double click, client retry) is answered
 * as the first was, not applied again.
 */
export async function resumeExecution({
  db,
  crew,
  principal,
  request,
}: {
  db: Db;
  crew: string;
  principal: Principal;
  request: ResumeRequest;
}): Promise<ResumeResult> {
  refuseEditsWithoutApproval(request);
  const found = await getExecutionOrThrow({ db, crew, id: request.execution_id, principal });
  // A flow's caller knows only the flow: a task of a crew one of its methods runs is decided there.
  const nested = await nestedRunAwaiting(db, found.id, found.tasks, request.task_id);
  if (nested) {
    const decided = await resumeExecution({
      db,
      crew,
      principal,
      request: { ...request, execution_id: nested },
    });
    // The flow's /status shows its nested run's reviews: on this process its next read must see
    // the decision too, not wait for the NOTIFY the nested run's change sends the flow.
    invalidateExecution(found.id);
    return decided;
  }
  await assertWebhookUrlsAllowed(request);
  const person = await personOf(db, principal);
  const who = { name: principalName(principal), user_id: person?.user_id ?? null };
  let result: ResumeResult | undefined;
  await db.tx(async (q) => {
    await q.query("SELECT pg_notify('crewdeck_work', $1)", [request.execution_id]);
    return mutateExecution(q, { id: request.execution_id }, (row) => {
      const decided = decideResume(row, request, { who, person }, new Date());
      result = decided.result;
      return decided.change;
    });
  });
  // The caller's next /status on this process must see the decision, not wait for the NOTIFY.
  invalidateExecution(request.execution_id);
  // Decided on the locked row, unless the run was deleted since it was read.
  if (!result) throw errors.notFound(`No execution '${request.execution_id}' on crew '${crew}'.`);
  return result;
}

/** The flow's nested run whose task `taskId` awaits review, when the flow has no such method. */
async function nestedRunAwaiting(
  db: Db,
  id: string,
  tasks: TaskState[],
  taskId: string,
): Promise<string | undefined> {
  if (tasks.some((t) => t.task_id === taskId)) return undefined;
  const { rows } = await db.query(
    `SELECT id FROM executions WHERE parent_id = $1 AND status = 'pending_human_input'
        AND open_reviews @> $2::jsonb ORDER BY created_at`,
    [id, JSON.stringify([{ task_id: taskId }])],
    IdRow,
  );
  return rows[0]?.id;
}
