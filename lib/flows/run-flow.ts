import { FlowExpressionError } from "@/lib/crew/flow-eval";
import type { FlowMethod, FlowPlan } from "@/lib/crew/flow-plan";
import { isConnectionError } from "@/lib/db/connection-errors";
import type { Db } from "@/lib/db/types";
import { errorMessage } from "@/lib/errors";
import {
  type FlowCurrent,
  FlowLoopError,
  type FlowProgress,
  initialProgress,
  startNext,
} from "@/lib/run-model/flow-progress";
import type { ExecutionRow } from "@/lib/run-model/types";
import { LeaseLostError } from "@/lib/runs/execution-store";
import { executionWriter } from "@/lib/runs/execution-writer";
import { failure } from "@/lib/runs/run-failure";
import { forgetItems } from "./each-items";
import { act, FlowStepError, outputText } from "./flow-actions";
import {
  finishMethod,
  methodStarted,
  openFeedback,
  plus,
  progressOf,
  waitFor,
} from "./flow-changes";
import { decidedFeedback } from "./flow-feedback";
import { nestedUsage } from "./nested-runs";
import { type Ran, runEach } from "./run-each";

/**
 * Runs a claimed flow from wherever it stands, one method at a time: each method's start and end
 * are written as they happen (with the state and outputs), so a worker taking the run over goes
 * on from the method that was running, and never runs a finished one again. A method that calls a
 * crew or an agent starts it as a nested run and lets go of the flow until it ends; one with
 * human feedback opens a review and lets go until it is decided.
 */
export async function runFlow({
  db,
  claimed,
  workerId,
  signal,
}: {
  db: Db;
  claimed: ExecutionRow;
  workerId: string;
  signal: AbortSignal;
}) {
  const plan = claimed.crew_snapshot.flow;
  if (!plan) throw new Error(`execution ${claimed.id} is not a flow`);
  const writer = executionWriter({ db, row: claimed, leaseOwner: workerId });
  let current: string | null = null;
  try {
    let row = await writer.change((r) => ({
      patch: {
        ...(r.status === "queued" ? { status: "running", started_at: new Date() } : {}),
        ...(r.flow ? {} : { flow: initialProgress(plan, {}) }),
      },
      events: [
        {
          type: r.status === "queued" ? "execution_started" : "execution_resumed",
          data: { worker: workerId },
        },
      ],
    }));
    for (;;) {
      if (signal.aborted) return;
      const p = progressOf(row);
      if (!p.current) {
        if (!p.queue.length) {
          await writer.change((r) => completed(r));
          return;
        }
        row = await writer.change((r) =>
          methodStarted(plan, r, startNext(plan, progressOf(r), new Date())),
        );
        continue;
      }
      const cur = p.current;
      current = cur.method;
      const method = methodOf(plan, cur.method);
      if (cur.awaiting_feedback) {
        const decided = await decidedFeedback(row, method, cur);
        if (!decided) return; // not decided yet: the review workspace wakes the flow
        const nested = await nestedUsage(db, row.id);
        row = await writer.change((r) =>
          finishMethod(plan, r, decided.edited ?? cur.output, { ...decided, nested }),
        );
        continue;
      }
      const step = await runMethod(db, row.id, plan, method, cur, p, signal);
      if ("waiting" in step) {
        await writer.change((r) => waitFor(r, step.current, step.waiting));
        return;
      }
      const nested = await nestedUsage(db, row.id);
      if (method.feedback) {
        await writer.change((r) => openFeedback(r, method, step.output, step.children, nested));
      } else {
        row = await writer.change((r) =>
          finishMethod(plan, r, step.output, { children: step.children, nested }),
        );
      }
      // The output is written with the flow now: what its items gave is no longer needed.
      if (method.do.call === "each") await forgetItems(db, row.id, cur.run);
      if (method.feedback) return;
    }
  } catch (err) {
    if (err instanceof LeaseLostError || signal.aborted) return;
    if (isConnectionError(err)) return; // resumed from its last written step once the database is back
    const known =
      err instanceof FlowStepError ||
      err instanceof FlowExpressionError ||
      err instanceof FlowLoopError;
    if (!known) console.error(`[crewdeck] flow ${claimed.id} failed in the engine:`, err);
    const message = known ? errorMessage(err) : "The flow failed unexpectedly; see the server log.";
    const nested = await nestedUsage(db, claimed.id).catch(() => undefined);
    await writer
      .change((r) => {
        const failed = failure(
          r,
          current,
          // A step's own errors name their method already; others are said with it.
          current && !message.startsWith(`method '${current}'`)
            ? `method '${current}': ${message}`
            : message,
        );
        if (!nested) return failed;
        const token_usage = plus(r.flow?.own_usage, nested);
        return { ...failed, patch: { ...failed.patch, token_usage } };
      })
      .catch(() => {});
  } finally {
    await writer.flush().catch(() => {});
  }
}

function methodOf(plan: FlowPlan, name: string): FlowMethod {
  const m = plan.methods.find((x) => x.name === name);
  if (!m) throw new FlowStepError(`the flow has no method '${name}'`);
  return m;
}

/** Runs the current method's action as far as it goes: to its output, or to a nested run. */
async function runMethod(
  db: Db,
  flowId: string,
  plan: FlowPlan,
  method: FlowMethod,
  cur: FlowCurrent,
  p: FlowProgress,
  signal: AbortSignal,
): Promise<Ran> {
  const base = { state: p.state, outputs: p.outputs };
  if (method.do.call !== "each") {
    const done = await act({
      db,
      flowId,
      plan,
      method: method.name,
      action: method.do,
      cel: base,
      key: `${cur.run}`,
    });
    if ("waiting" in done) return { waiting: done.waiting, current: cur };
    return { output: done.output, children: done.child ? [done.child] : [] };
  }
  return runEach({ db, flowId, plan, method, action: method.do, cur, base, signal });
}

function completed(r: ExecutionRow) {
  const p = progressOf(r);
  const result = outputText(p.last_output);
  const now = new Date();
  return {
    patch: {
      status: "completed" as const,
      result,
      current_task: null,
      finished_at: now,
      lease_owner: null,
      lease_expires_at: null,
    },
    events: [{ type: "execution_completed", data: { result, token_usage: r.token_usage } }],
  };
}
