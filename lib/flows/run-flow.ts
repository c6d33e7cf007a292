import type { FlowMethod, FlowPlan } from "@/lib/crew/flow-plan";
import { isConnectionError } from "@/lib/db/connection-errors";
import type { Db } from "@/lib/db/types";
import { type FlowCurrent, type FlowProgress, startNext } from "@/lib/run-model/flow-progress";
import type { ExecutionRow } from "@/lib/run-model/types";
import { LeaseLostError } from "@/lib/runs/execution-store";
import {
  type ClaimedRun,
  type ExecutionWriter,
  executionWriter,
} from "@/lib/runs/execution-writer";
import { forgetItems } from "./each-items";
import { act, FlowStepError } from "./flow-actions";
import { finishMethod, methodStarted, openFeedback, progressOf, waitFor } from "./flow-changes";
import { decidedFeedback } from "./flow-feedback";
import {
  flowCompleted,
  flowFailed,
  flowFailureMessage,
  flowStarted,
  isFlowError,
} from "./flow-lifecycle";
import { nestedUsage } from "./nested-runs";
import { type Ran, runEach } from "./run-each";

/**
 * Runs a claimed flow from wherever it stands, one method at a time: each method's start and end
 * are written as they happen (with the state and outputs), so a worker taking the run over goes
 * on from the method that was running, and never runs a finished one again. A method that calls a
 * crew or an agent starts it as a nested run and lets go of the flow until it ends; one with
 * human feedback opens a review and lets go until it is decided.
 */
export async function runFlow({ db, claimed, workerId, signal }: ClaimedRun) {
  const plan = claimed.crew_snapshot.flow;
  if (!plan) throw new Error(`execution ${claimed.id} is not a flow`);
  const writer = executionWriter({ db, row: claimed, leaseOwner: workerId });
  const at: FlowAt = { db, plan, writer, signal };
  let current: string | null = null;
  try {
    let row: ExecutionRow | undefined = await writer.change((r) => flowStarted(r, plan, workerId));
    while (row && !signal.aborted) {
      current = progressOf(row).current?.method ?? current;
      row = await advance(at, row);
    }
  } catch (err) {
    if (err instanceof LeaseLostError || signal.aborted) return;
    if (isConnectionError(err)) return; // resumed from its last written step once the database is back
    if (!isFlowError(err))
      console.error(`[crewdeck] flow ${claimed.id} failed in the engine:`, err);
    const message = flowFailureMessage(err, current);
    const nested = await nestedUsage(db, claimed.id).catch(() => undefined);
    await writer.change((r) => flowFailed(r, current, message, nested)).catch(() => {});
  } finally {
    await writer.flush().catch(() => {});
  }
}

/** A flow as one worker runs it. */
type FlowAt = { db: Db; plan: FlowPlan; writer: ExecutionWriter; signal: AbortSignal };

/**
 * One step of the flow: the next method started, the current one run to its output (or to a
 * nested run or a review it waits for), or the flow completed. The row to go on from, or
 * undefined when the worker lets go of the flow.
 */
async function advance(at: FlowAt, row: ExecutionRow): Promise<ExecutionRow | undefined> {
  const { db, plan, writer, signal } = at;
  const p = progressOf(row);
  if (!p.current) {
    if (!p.queue.length) {
      await writer.change(flowCompleted);
      return undefined;
    }
    return writer.change((r) => methodStarted(plan, r, startNext(plan, progressOf(r), new Date())));
  }
  const cur = p.current;
  const method = methodOf(plan, cur.method);
  if (cur.awaiting_feedback) return finishDecided(at, row, method, cur);
  const step = await runMethod(db, row.id, plan, method, cur, p, signal);
  if ("waiting" in step) {
    await writer.change((r) => waitFor(r, step.current, step.waiting));
    return undefined;
  }
  const nested = await nestedUsage(db, row.id);
  const { output, children } = step;
  if (method.feedback)
    await writer.change((r) => openFeedback(r, method, output, children, nested));
  else row = await writer.change((r) => finishMethod(plan, r, output, { children, nested }));
  // The output is written with the flow now: what its items gave is no longer needed.
  if (method.do.call === "each") await forgetItems(db, row.id, cur.run);
  return method.feedback ? undefined : row;
}

/** A method whose human feedback is decided finishes; undecided, the flow waits for it. */
async function finishDecided(
  { db, plan, writer }: FlowAt,
  row: ExecutionRow,
  method: FlowMethod,
  cur: FlowCurrent,
): Promise<ExecutionRow | undefined> {
  const decided = await decidedFeedback(row, method, cur);
  if (!decided) return undefined; // not decided yet: the review workspace wakes the flow
  const nested = await nestedUsage(db, row.id);
  return writer.change((r) =>
    finishMethod(plan, r, decided.edited ?? cur.output, { ...decided, nested }),
  );
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
