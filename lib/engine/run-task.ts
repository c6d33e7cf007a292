import { env } from "@/lib/config/env";
import type { AgentDef, TaskDef } from "@/lib/crew/schema";
import { isConnectionError } from "@/lib/db/connection-errors";
import type { Db } from "@/lib/db/types";
import { ArtifactError } from "@/lib/outputs/output-file";
import type { ExecutionRow, NewEvent } from "@/lib/run-model/types";
import { LeaseLostError } from "@/lib/runs/execution-store";
import type { ExecutionWriter } from "@/lib/runs/execution-writer";
import { failure } from "@/lib/runs/run-failure";
import { linkedSignal } from "@/lib/util/linked-signal";
import { interpolate, PlaceholderBudgetError } from "@/lib/util/placeholders";
import { type AgentAt, agentWork } from "./agent-work";
import { answerWithChecks, type CheckedAnswer, keptOutput } from "./checked-answer";
import { agentFor } from "./delegation";
import { buildPrompt, contextFor } from "./prompt";
import { ToolApprovalNeeded } from "./run-agent";
import {
  attemptFailure,
  attemptOf,
  completedOutputs,
  type Resume,
  taskStarted,
} from "./task-attempt";
import { awaitToolApproval, completeTask } from "./task-changes";

/**
 * One attempt at one task: the agent's loop with every step recorded as it happens, then the
 * output — completing the task, handing it to a reviewer, or completing the run on the last task.
 */
export async function runTask({
  db,
  row,
  task,
  index,
  writer,
  signal,
}: {
  db: Db;
  row: ExecutionRow;
  task: TaskDef;
  index: number;
  writer: ExecutionWriter;
  signal: AbortSignal;
}): Promise<ExecutionRow> {
  const { change } = writer;
  const agent = agentFor(row.crew_snapshot, task);
  if (!agent)
    return change((r) =>
      failure(r, task.id, `Task '${task.id}' names unknown agent '${task.agent}'.`),
    );
  const { resume, attempt, startedAt } = attemptOf(row, index, new Date());
  // Written with the attempt's first steps, or its end, whichever comes first.
  row = writer.record((r) =>
    taskStarted(r, { task, index, agentId: agent.id, attempt, startedAt, resume }),
  );
  const fail = (message: string) => change((r) => failure(r, task.id, message, attempt));

  // The texts with the run's inputs filled in: one past its budget fails the task, saying which.
  let texts: ReturnType<typeof fillTexts>;
  try {
    texts = fillTexts({ task, index, row, outputs: completedOutputs(row), agent });
  } catch (err) {
    if (!(err instanceof PlaceholderBudgetError)) throw err;
    return fail(`${err.message}.`);
  }
  const at: AgentAt = { db, row, task, index, attempt, agent, writer };
  const result = await answerTask(at, { signal, texts, resume });
  if (result instanceof ToolApprovalNeeded)
    return change((r) => awaitToolApproval(r, task, index, attempt, agent.id, result));
  if (!result.ok) return fail(result.error);
  let kept: ReturnType<typeof keptOutput>;
  try {
    kept = keptOutput(task, row.inputs, result);
  } catch (err) {
    if (!(err instanceof ArtifactError)) throw err;
    return fail(`Task '${task.id}': ${err.message}`);
  }
  const answer = { output: result.output, usage: result.usage, ...kept };
  const finishedAt = new Date();
  return change((r) =>
    completeTask(r, { task, index, attempt, agentId: agent.id, answer, startedAt, finishedAt }),
  );
}

/**
 * The agent's answer once it passes the task's checks, within the task's timeout; or the pause
 * for tool calls a person must approve. A failure of the model or the set-up is the task's; a
 * lost lease, a stop or a lost database connection is the worker's, and is thrown.
 */
async function answerTask(
  at: AgentAt,
  {
    signal,
    texts,
    resume,
  }: { signal: AbortSignal; texts: ReturnType<typeof fillTexts>; resume: Resume | undefined },
): Promise<CheckedAnswer | ToolApprovalNeeded> {
  const { task, attempt, agent } = at;
  const { system, prompt, checks } = texts;
  const e = env();
  const timeoutMs = (task.timeout_seconds ?? e.TASK_TIMEOUT_SECONDS) * 1000;
  const timeout = AbortSignal.timeout(timeoutMs);
  const work = agentWork(at);
  const modelId = work.modelId;
  const { signal: taskSignal, unlink } = linkedSignal(signal, timeout);
  let from = resume;
  try {
    return await answerWithChecks({
      task: { ...task, ...checks },
      // Inside the try: a model that cannot be configured fails the task, saying why.
      model: work.model(),
      maxRetries: e.MODEL_MAX_RETRIES,
      signal: taskSignal,
      ask: (extra) => {
        // Only the first answer goes on from the pause; a check's retry asks afresh.
        const paused = from;
        from = undefined;
        return work.run({
          system,
          prompt: extra ? `${prompt}\n\n${extra}` : prompt,
          signal: taskSignal,
          resume: paused,
        });
      },
      record: (events, usage) =>
        work.record(
          events.map(
            (c): NewEvent => ({
              type: c.type,
              task_id: task.id,
              attempt,
              data: { agent: agent.id, model: modelId, ...c.data },
            }),
          ),
          usage,
        ),
    });
  } catch (err) {
    if (err instanceof LeaseLostError || signal.aborted || isConnectionError(err)) throw err;
    if (err instanceof ToolApprovalNeeded) return err;
    const timedOut = timeout.aborted;
    return {
      ok: false,
      error: attemptFailure(err, { taskId: task.id, timedOut, timeoutMs, modelId }),
    };
  } finally {
    unlink();
  }
}

/** The prompt and the guardrails of one attempt, with the run's inputs filled in. */
function fillTexts({
  task,
  index,
  row,
  outputs,
  agent,
}: {
  task: TaskDef;
  index: number;
  row: ExecutionRow;
  outputs: Map<string, string>;
  agent: AgentDef;
}) {
  const { system, prompt } = buildPrompt({
    agent,
    task,
    inputs: row.inputs,
    context: contextFor(task, row.crew_snapshot.tasks, outputs),
    feedback: row.tasks.flatMap((t) =>
      (t.reviews ?? [])
        .filter((r) => r.is_approve && r.feedback.trim())
        .map((r) => ({ task_id: t.task_id, feedback: r.feedback })),
    ),
    revision: row.tasks[index]?.reviews?.filter((r) => !r.is_approve).at(-1),
  });
  // A guardrail may name the run's inputs ("must mention {topic}"), as a description may.
  const fill = (text: string, field: string) => interpolate(text, row.inputs, { field });
  const checks = {
    guardrail: task.guardrail && fill(task.guardrail, `Task '${task.id}' guardrail`),
    guardrails: task.guardrails?.map((g, i) => fill(g, `Task '${task.id}' guardrails[${i}]`)),
  };
  return { system, prompt, checks };
}
