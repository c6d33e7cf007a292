import { APICallError, RetryError } from "ai";
import { env } from "@/lib/config/env";
import type { AgentDef, TaskDef } from "@/lib/crew/schema";
import { isConnectionError } from "@/lib/db/connection-errors";
import type { Db } from "@/lib/db/types";
import { errorMessage } from "@/lib/errors";
import { ModelConfigError } from "@/lib/llm/choose-model";
import { ArtifactError } from "@/lib/outputs/output-file";
import { openReview, openReviewsOf } from "@/lib/run-model/open-reviews";
import type { ExecutionRow, NewEvent } from "@/lib/run-model/types";
import { LeaseLostError } from "@/lib/runs/execution-store";
import type { ExecutionWriter } from "@/lib/runs/execution-writer";
import { failure } from "@/lib/runs/run-failure";
import { linkedSignal } from "@/lib/util/linked-signal";
import { interpolate, PlaceholderBudgetError } from "@/lib/util/placeholders";
import { agentWork } from "./agent-work";
import { answerWithChecks, keptOutput } from "./checked-answer";
import { agentFor } from "./delegation";
import { buildPrompt, contextFor } from "./prompt";
import { ToolApprovalNeeded } from "./run-agent";
import { awaitToolApproval, replaceTask, settle } from "./task-changes";

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
  const crew = row.crew_snapshot;
  const agent = agentFor(crew, task);
  if (!agent)
    return change((r) =>
      failure(r, task.id, `Task '${task.id}' names unknown agent '${task.agent}'.`),
    );
  // Tool calls decided since the agent stopped for them: the same attempt goes on from there.
  const paused = row.tasks[index]?.paused;
  let resume = paused?.decided?.length ? { paused, decided: paused.decided } : undefined;
  const attempt = (row.tasks[index]?.attempts ?? 0) + (resume ? 0 : 1);
  const startedAt = resume ? new Date(row.tasks[index]?.started_at ?? Date.now()) : new Date();

  // Written with the attempt's first steps, or its end, whichever comes first.
  row = writer.record((r) => {
    const recovered = r.tasks[index]?.status === "running";
    return {
      patch: {
        current_task: task.id,
        tasks: replaceTask(r.tasks, index, {
          status: "running",
          attempts: attempt,
          started_at: startedAt.toISOString(),
          finished_at: null,
          execution_time: null,
          error: null,
          ...(resume ? {} : { paused: undefined }),
        }),
      },
      events: [
        {
          type: "task_started",
          task_id: task.id,
          attempt,
          data: {
            agent: agent.id,
            name: task.name,
            recovered,
            ...(resume ? { continued: true, decided_calls: resume.decided.length } : {}),
          },
        },
      ],
    };
  });

  const outputs = new Map(
    row.tasks.flatMap((t) =>
      t.status === "completed" && t.output !== null ? [[t.task_id, t.output] as const] : [],
    ),
  );
  // The texts with the run's inputs filled in: one past its budget fails the task, saying which.
  let filled: ReturnType<typeof fillTexts>;
  try {
    filled = fillTexts({ task, index, row, outputs, agent });
  } catch (err) {
    if (!(err instanceof PlaceholderBudgetError)) throw err;
    const message = `${err.message}.`;
    return change((r) => failure(r, task.id, message, attempt));
  }
  const { system, prompt, checks } = filled;
  const e = env();
  const timeoutMs = (task.timeout_seconds ?? e.TASK_TIMEOUT_SECONDS) * 1000;
  const timeout = AbortSignal.timeout(timeoutMs);
  const work = agentWork({ db, row, task, index, attempt, agent, writer });
  const modelId = work.modelId;

  const { signal: taskSignal, unlink } = linkedSignal(signal, timeout);

  let result: Awaited<ReturnType<typeof answerWithChecks>>;
  try {
    result = await answerWithChecks({
      task: { ...task, ...checks },
      // Inside the try: a model that cannot be configured fails the task, saying why.
      model: work.model(),
      maxRetries: e.MODEL_MAX_RETRIES,
      signal: taskSignal,
      ask: (extra) => {
        // Only the first answer goes on from the pause; a check's retry asks afresh.
        const from = resume;
        resume = undefined;
        return work.run({
          system,
          prompt: extra ? `${prompt}\n\n${extra}` : prompt,
          signal: taskSignal,
          resume: from,
        });
      },
      record: (checks, usage) =>
        work.record(
          checks.map(
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
    if (err instanceof ToolApprovalNeeded) {
      const pause = err;
      return change((r) => awaitToolApproval(r, task, index, attempt, agent.id, pause));
    }
    const message = timeout.aborted
      ? `Task '${task.id}' timed out after ${timeoutMs / 1000} s.`
      : err instanceof PlaceholderBudgetError
        ? `${err.message}.` // a coworker's role or goal, filled in for delegation
        : describeModelError(err, modelId);
    return change((r) => failure(r, task.id, message, attempt));
  } finally {
    unlink();
  }
  if (!result.ok) {
    const error = result.error;
    return change((r) => failure(r, task.id, error, attempt));
  }
  let kept: ReturnType<typeof keptOutput>;
  try {
    kept = keptOutput(task, row.inputs, result);
  } catch (err) {
    if (!(err instanceof ArtifactError)) throw err;
    const message = `Task '${task.id}': ${err.message}`;
    return change((r) => failure(r, task.id, message, attempt));
  }
  const { artifacts, outputInfo } = kept;
  const done = { output: result.output, usage: result.usage };

  const finishedAt = new Date();
  return change((r) => {
    const tasks = replaceTask(r.tasks, index, {
      status: "completed",
      output: done.output,
      finished_at: finishedAt.toISOString(),
      execution_time: Math.round((finishedAt.getTime() - startedAt.getTime()) / 10) / 100,
    });
    // Counted step by step already (onStep above).
    const usage = r.token_usage;
    const events: NewEvent[] = [
      {
        type: "task_completed",
        task_id: task.id,
        attempt,
        data: {
          agent: agent.id,
          name: task.name,
          output: done.output,
          usage: done.usage,
          ...outputInfo,
        },
      },
    ];
    if (task.human_input) {
      // Open its review. The run pauses once nothing else runs (async tasks beside it may still
      // be working, and may open reviews of their own).
      const others = openReviewsOf(r).filter((o) => o.task_id !== task.id);
      const review = openReview(task, attempt, done.output, finishedAt, others);
      const reviews = [...others, review];
      return settle(r, replaceTask(tasks, index, { status: "pending_human_input" }), reviews, {
        patch: { token_usage: usage },
        events: [
          {
            type: "review_requested",
            task_id: task.id,
            attempt,
            data: {
              agent: agent.id,
              name: task.name,
              output: done.output,
              expected_output: task.expected_output,
              assignees: review.assignees,
              required_approvals: review.required_approvals,
              deadline_at: review.deadline_at,
              output_sha256: review.output_sha256,
              ...outputInfo,
            },
          },
        ],
        // Kept now: a rejection's next attempt replaces it (same name), an approval keeps it.
        artifacts,
      });
    }
    if (tasks.some((t) => t.status !== "completed"))
      return settle(r, tasks, openReviewsOf(r), {
        patch: { token_usage: usage },
        events,
        artifacts,
      });
    return {
      patch: {
        tasks,
        token_usage: usage,
        status: "completed",
        result: done.output,
        current_task: null,
        finished_at: finishedAt,
        lease_owner: null,
        lease_expires_at: null,
      },
      events: [
        ...events,
        { type: "execution_completed", data: { result: done.output, token_usage: usage } },
      ],
      artifacts,
    };
  });
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

function describeModelError(err: unknown, modelId: string): string {
  // Set-up, not a failure of the model: say what to set, as the warning at load did.
  if (err instanceof ModelConfigError)
    return `${err.message.replace(/\.$/, "")}: set it in Crewdeck's environment and restart.`;
  const last = err instanceof RetryError ? err.lastError : err;
  const tries = err instanceof RetryError ? ` after ${err.errors.length} attempts` : "";
  if (APICallError.isInstance(last)) {
    const status = last.statusCode ? `HTTP ${last.statusCode}` : "no response";
    return `The model '${modelId}' failed${tries}: ${status} — ${last.message}`;
  }
  return `The model '${modelId}' failed${tries}: ${errorMessage(last)}`;
}
