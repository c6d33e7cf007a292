import type { Span } from "@opentelemetry/api";
import { z } from "zod";
import type { TaskDef } from "@/lib/crew/schema";
import { time } from "@/lib/db/columns";
import type { Queryable } from "@/lib/db/types";
import { errorMessage } from "@/lib/errors";
import { TERMINAL } from "@/lib/run-model/states";
import type { ExecutionRow } from "@/lib/run-model/types";
import { executionSpanId, taskSpanId, traceIdOf } from "./ids";
import { STATUS_ERROR, tracing } from "./state";

// The trace of an execution: `crewdeck.execution {crew}` → `crewdeck.task {task}` →
// `invoke_agent {agent}` (one per attempt) → `chat {model}` / `execute_tool {tool}`.
//
// An execution may be run by several processes (a worker taking over from one that died, another
// picking it up after a review) and its tasks may wait days for people. So the execution's and
// the tasks' spans are not held open by anyone: their ids are derived from the execution's (see
// ids.ts), every attempt names them as its parents whoever runs it, and they are written once,
// with their real start and end times, when the execution ends (traceChange).

type AttemptArgs = { row: ExecutionRow; index: number; task: TaskDef };

/** runTask (one attempt at one task) as an `invoke_agent` span, when tracing is on. */
export function tracedAttempt<A extends AttemptArgs>(
  run: (args: A) => Promise<ExecutionRow>,
): (args: A) => Promise<ExecutionRow> {
  return async (args) => {
    const t = tracing();
    if (!t) return run(args);
    const { row, index, task } = args;
    const agent = task.agent ?? "manager";
    const span = t.start(`invoke_agent ${agent}`, {
      parent: t.remoteParent(traceIdOf(row.id), taskSpanId(row.id, task.id)),
      attributes: {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.id": agent,
        "gen_ai.agent.name": agent,
        "crewdeck.execution.id": row.id,
        "crewdeck.crew": row.crew,
        "crewdeck.task.id": task.id,
      },
    });
    const before = row.tasks[index]?.token_usage;
    try {
      const after = await t.current.run(span, () => run(args));
      const state = after.tasks[index];
      const used = state?.token_usage;
      span.setAttributes({
        "crewdeck.task.attempt": state?.attempts ?? 0,
        "crewdeck.task.status": state?.status ?? "unknown",
        "gen_ai.usage.input_tokens": (used?.input_tokens ?? 0) - (before?.input_tokens ?? 0),
        "gen_ai.usage.output_tokens": (used?.output_tokens ?? 0) - (before?.output_tokens ?? 0),
      });
      if (state?.status === "error")
        span.setStatus({ code: STATUS_ERROR, message: state.error ?? "" });
      return after;
    } catch (err) {
      // Stopped, lease lost, or the engine failed: the attempt ends here in this process.
      span.setAttribute("crewdeck.task.interrupted", true);
      span.setStatus({ code: STATUS_ERROR, message: errorMessage(err) });
      throw err;
    } finally {
      span.end();
    }
  };
}

/** Whether a change ends an execution whose trace is ours to write (when tracing is on). */
export function endsTrace(
  before: Pick<ExecutionRow, "status">,
  after: Pick<ExecutionRow, "status" | "deployment_id">,
) {
  if (!tracing() || TERMINAL.has(before.status) || !TERMINAL.has(after.status)) return false;
  return !after.deployment_id; // run elsewhere: its trace is the remote's
}

/**
 * Called with every change of an execution (mutateExecution): when it ends, writes its span and
 * its tasks' spans, with the ids every attempt named as parents.
 */
export async function traceChange(q: Queryable, before: ExecutionRow, after: ExecutionRow) {
  const t = tracing();
  if (!t || !endsTrace(before, after)) return;
  try {
    // A task's span starts with the event before its first task_started (its first attempt's
    // span began just before that event was written, once the previous step had been).
    const { rows } = await q.query(
      `SELECT f.task_id,
              coalesce((SELECT p.created_at FROM execution_events p
                         WHERE p.execution_id = $1 AND p.seq < f.seq
                         ORDER BY p.seq DESC LIMIT 1), f.created_at) AS first
         FROM (SELECT DISTINCT ON (task_id) task_id, seq, created_at FROM execution_events
                WHERE execution_id = $1 AND type = 'task_started' ORDER BY task_id, seq) f`,
      [after.id],
      z.object({ task_id: z.string(), first: time }),
    );
    const firstStart = new Map(rows.map((r) => [r.task_id, new Date(r.first)]));
    const traceId = traceIdOf(after.id);
    const end = after.finished_at ? new Date(after.finished_at) : new Date();
    const root = t.start(`crewdeck.execution ${after.crew}`, {
      traceId,
      spanId: executionSpanId(after.id),
      parent: "root",
      startTime: new Date(after.created_at),
      attributes: {
        "gen_ai.operation.name": "invoke_workflow",
        "crewdeck.execution.id": after.id,
        "crewdeck.crew": after.crew,
        "crewdeck.execution.status": after.status,
        "gen_ai.usage.input_tokens": after.token_usage.input_tokens,
        "gen_ai.usage.output_tokens": after.token_usage.output_tokens,
        ...(after.started_at
          ? { "crewdeck.execution.started_at": new Date(after.started_at).toISOString() }
          : {}),
      },
    });
    if (after.status === "error")
      root.setStatus({ code: STATUS_ERROR, message: after.error ?? "" });
    const parent = t.remoteParent(traceId, executionSpanId(after.id));
    for (const task of after.tasks) {
      const started = firstStart.get(task.task_id);
      if (!started) continue;
      const span: Span = t.start(`crewdeck.task ${task.task_id}`, {
        spanId: taskSpanId(after.id, task.task_id),
        parent,
        startTime: started,
        attributes: {
          "crewdeck.task.id": task.task_id,
          "crewdeck.task.status": task.status,
          "crewdeck.task.attempts": task.attempts,
          "gen_ai.agent.id": task.agent,
          "gen_ai.usage.input_tokens": task.token_usage?.input_tokens ?? 0,
          "gen_ai.usage.output_tokens": task.token_usage?.output_tokens ?? 0,
        },
      });
      if (task.status === "error")
        span.setStatus({ code: STATUS_ERROR, message: task.error ?? "" });
      span.end(task.finished_at ? new Date(task.finished_at) : end);
    }
    root.end(end);
  } catch (err) {
    console.error("[telemetry] could not write an execution's spans:", err);
  }
}
