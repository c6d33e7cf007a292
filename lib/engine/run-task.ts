import { APICallError, RetryError } from "ai";
import { env } from "@/lib/config/env";
import type { TaskDef } from "@/lib/crew/schema";
import { isConnectionError } from "@/lib/db/connection-errors";
import type { Db } from "@/lib/db/types";
import { resolveModel } from "@/lib/llm/resolve-model";
import { ArtifactError } from "@/lib/outputs/output-file";
import { type Change, LeaseLostError } from "@/lib/runs/execution-store";
import type { ExecutionRow, NewEvent, TaskState, TokenUsage } from "@/lib/runs/types";
import { answerWithChecks, keptOutput } from "./checked-answer";
import { buildPrompt, contextFor } from "./prompt";
import { type AgentStep, runAgent } from "./run-agent";
import { toolsFor } from "./tools";

const LAST_STEP_TEXT_LIMIT = 4_000;

const ZERO_USAGE: TokenUsage = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };

function addUsage(a: TokenUsage, b: { input_tokens: number; output_tokens: number }): TokenUsage {
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    total_tokens: a.total_tokens + b.input_tokens + b.output_tokens,
  };
}

/** Applies one change to the execution's row, under the worker's lease. */
export type ChangeRow = (decide: (row: ExecutionRow) => Change) => Promise<ExecutionRow>;

/**
 * One attempt at one task: the agent's loop with every step recorded as it happens, then the
 * output — completing the task, handing it to a reviewer, or completing the run on the last task.
 */
export async function runTask({
  db,
  row,
  task,
  index,
  change,
  signal,
}: {
  db: Db;
  row: ExecutionRow;
  task: TaskDef;
  index: number;
  change: ChangeRow;
  signal: AbortSignal;
}): Promise<ExecutionRow> {
  const crew = row.crew_snapshot;
  const agent = crew.agents.find((a) => a.id === task.agent);
  if (!agent)
    return change((r) =>
      failure(r, task.id, `Task '${task.id}' names unknown agent '${task.agent}'.`),
    );
  const attempt = (row.tasks[index]?.attempts ?? 0) + 1;
  const startedAt = new Date();

  row = await change((r) => {
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
        }),
      },
      events: [
        {
          type: "task_started",
          task_id: task.id,
          attempt,
          data: { agent: agent.id, name: task.name, recovered },
        },
      ],
    };
  });

  const outputs = new Map(
    row.tasks
      .filter((t) => t.status === "completed" && t.output !== null)
      .map((t) => [t.task_id, t.output as string]),
  );
  const { system, prompt } = buildPrompt({
    agent,
    task,
    inputs: row.inputs,
    context: contextFor(task, crew.tasks, outputs),
    feedback: row.tasks.flatMap((t) =>
      (t.reviews ?? [])
        .filter((r) => r.is_approve && r.feedback.trim())
        .map((r) => ({ task_id: t.task_id, feedback: r.feedback })),
    ),
    revision: row.tasks[index]?.reviews?.filter((r) => !r.is_approve).at(-1),
  });
  const e = env();
  const timeoutMs = (task.timeout_seconds ?? e.TASK_TIMEOUT_SECONDS) * 1000;
  const timeout = AbortSignal.timeout(timeoutMs);
  const modelId = agent.llm ?? e.DEFAULT_LLM;

  const taskSignal = AbortSignal.any([signal, timeout]);
  // Tokens count as they are spent, so a task that fails or is stopped still shows them.
  const spend = (r: ExecutionRow, used: TokenUsage) =>
    used.total_tokens
      ? {
          token_usage: addUsage(r.token_usage, used),
          tasks: r.tasks.map((t, i) =>
            i === index
              ? {
                  ...t,
                  token_usage: addUsage(t.token_usage ?? ZERO_USAGE, used),
                  models: [...new Set([...(t.models ?? []), modelId])],
                }
              : t,
          ),
        }
      : {};

  let result: Awaited<ReturnType<typeof answerWithChecks>>;
  try {
    // Inside the try: a model that cannot be configured fails the task, saying why.
    const model = resolveModel(modelId);
    result = await answerWithChecks({
      task,
      model,
      maxRetries: e.MODEL_MAX_RETRIES,
      signal: taskSignal,
      ask: (extra) =>
        runAgent({
          model,
          system,
          prompt: extra ? `${prompt}\n\n${extra}` : prompt,
          tools: toolsFor(agent, { db, executionId: row.id }),
          maxSteps: e.AGENT_MAX_STEPS,
          maxRetries: e.MODEL_MAX_RETRIES,
          signal: taskSignal,
          onStep: async (steps, usage) => {
            const used = addUsage(ZERO_USAGE, usage);
            if (!steps.length && !used.total_tokens) return;
            await change((r) => ({
              patch: {
                ...(steps.length
                  ? {
                      last_step: stepView(
                        steps.at(-1) as AgentStep,
                        task.id,
                        agent.id,
                        attempt,
                        modelId,
                      ),
                    }
                  : {}),
                ...spend(r, used),
              },
              events: steps.map(
                (s): NewEvent => ({
                  type: s.type,
                  task_id: task.id,
                  attempt,
                  data: { agent: agent.id, model: modelId, ...s },
                }),
              ),
            }));
          },
        }),
      record: async (checks, usage) => {
        await change((r) => ({
          patch: usage ? spend(r, addUsage(ZERO_USAGE, usage)) : {},
          events: checks.map(
            (c): NewEvent => ({
              type: c.type,
              task_id: task.id,
              attempt,
              data: { agent: agent.id, model: modelId, ...c.data },
            }),
          ),
        }));
      },
    });
  } catch (err) {
    if (err instanceof LeaseLostError || signal.aborted || isConnectionError(err)) throw err;
    const message = timeout.aborted
      ? `Task '${task.id}' timed out after ${timeoutMs / 1000} s.`
      : describeModelError(err, modelId);
    return change((r) => failure(r, task.id, message, attempt));
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
      // Hand the output to a reviewer; the lease goes too, so no worker holds a paused run. The
      // webhook subscription ends here (the seed: URLs must be given again on resume), after
      // this last task notification, which tells the reviewer's system what to resume.
      const pending = {
        task_id: task.id,
        output: done.output,
        attempt,
        requested_at: finishedAt.toISOString(),
      };
      return {
        patch: {
          tasks: replaceTask(tasks, index, { status: "pending_human_input" }),
          token_usage: usage,
          status: "pending_human_input",
          pending_human_input: pending,
          lease_owner: null,
          lease_expires_at: null,
          webhooks: {},
        },
        webhooksFor: "before",
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
              ...outputInfo,
            },
          },
        ],
        // Kept now: a rejection's next attempt replaces it (same name), an approval keeps it.
        artifacts,
      };
    }
    const last = index === tasks.length - 1;
    if (!last) return { patch: { tasks, token_usage: usage }, events, artifacts };
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

export function failure(
  r: ExecutionRow,
  taskId: string | null,
  message: string,
  attempt?: number,
): Change {
  const now = new Date();
  const tasks = r.tasks.map((t) =>
    t.task_id === taskId || (taskId === null && t.status === "running")
      ? { ...t, status: "error" as const, error: message, finished_at: now.toISOString() }
      : t,
  );
  return {
    patch: {
      status: "error",
      error: message,
      tasks,
      current_task: null,
      finished_at: now,
      lease_owner: null,
      lease_expires_at: null,
    },
    events: [
      ...(taskId
        ? [
            {
              type: "task_failed",
              task_id: taskId,
              attempt: attempt ?? null,
              data: { error: message },
            },
          ]
        : []),
      { type: "execution_failed", data: { error: message } },
    ],
  };
}

function replaceTask(tasks: TaskState[], index: number, patch: Partial<TaskState>) {
  return tasks.map((t, i) => (i === index ? { ...t, ...patch } : t));
}

// /status shows the latest step; long texts are cut there (the event log keeps them whole).
function stepView(step: AgentStep, taskId: string, agent: string, attempt: number, model: string) {
  const cut = (v: unknown) => {
    const s = typeof v === "string" ? v : JSON.stringify(v);
    return s && s.length > LAST_STEP_TEXT_LIMIT ? `${s.slice(0, LAST_STEP_TEXT_LIMIT)}…` : v;
  };
  const { type, ...rest } = step;
  const body = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, cut(v)]));
  return { type, task_id: taskId, agent, attempt, model, ...body, at: new Date().toISOString() };
}

function describeModelError(err: unknown, modelId: string): string {
  const last = err instanceof RetryError ? err.lastError : err;
  const tries = err instanceof RetryError ? ` after ${err.errors.length} attempts` : "";
  if (APICallError.isInstance(last)) {
    const status = last.statusCode ? `HTTP ${last.statusCode}` : "no response";
    return `The model '${modelId}' failed${tries}: ${status} — ${last.message}`;
  }
  return `The model '${modelId}' failed${tries}: ${(last as Error)?.message ?? String(last)}`;
}
