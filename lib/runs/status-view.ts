import type { StartedBy, StatusResponse, TokenUsage } from "@/lib/api/schemas";
import type { ExecutionSummary } from "./get-execution";
import { DEFAULT_MODEL_PRICES, envModelPrices, estimateCost, type ModelPrices } from "./pricing";
import { reviewWait } from "./resume-execution";
import { CREWAI_STATE } from "./states";
import type { TaskState } from "./types";

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const seconds = (from: Date | null, to: Date | null) =>
  from ? Math.round(((to ?? new Date()).getTime() - new Date(from).getTime()) / 10) / 100 : null;

const ZERO: TokenUsage = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };

/** How the run was started: a remote deployment's run says so; older runs have nothing. */
export function startedBy(row: {
  started_via: string | null;
  started_by_name: string | null;
  deployment_id: string | null;
}): StartedBy {
  if (row.deployment_id) return { via: "deployment", name: row.started_by_name };
  if (row.started_via === "dashboard" || row.started_via === "api")
    return { via: row.started_via, name: row.started_by_name };
  return null;
}

/** The cost of the tasks' recorded usage (each task runs on its agent's one model). */
export function runCost(tasks: TaskState[], prices: ModelPrices) {
  return estimateCost(
    tasks.flatMap((t) =>
      t.models?.[0] && t.token_usage
        ? [
            {
              model: t.models[0],
              input_tokens: t.token_usage.input_tokens,
              output_tokens: t.token_usage.output_tokens,
            },
          ]
        : [],
    ),
    prices,
  );
}

/** The /status body: our fields plus CrewAI's `state`, so both kinds of client read it. */
export function toStatusResponse(
  row: ExecutionSummary,
  prices: ModelPrices = { ...DEFAULT_MODEL_PRICES, ...envModelPrices() },
): StatusResponse {
  const tasks = row.tasks.map((t) => ({
    task_id: t.task_id,
    name: t.name,
    agent: t.agent,
    status: t.status,
    attempts: t.attempts,
    output: t.output,
    started_at: t.started_at,
    finished_at: t.finished_at,
    execution_time: t.execution_time,
    token_usage: { ...ZERO, ...t.token_usage },
  }));
  const executionTime = seconds(row.started_at, row.finished_at);
  // A review under way counts up to now.
  const reviewWaitSeconds =
    Math.round(
      ((row.review_wait_seconds ?? 0) +
        (row.status === "pending_human_input"
          ? reviewWait(row.pending_human_input, new Date())
          : 0)) *
        100,
    ) / 100;
  const order = row.input_order ?? [];
  const inputs = Object.fromEntries([
    ...order.filter((k) => k in (row.inputs ?? {})).map((k) => [k, row.inputs[k] ?? null]),
    ...Object.entries(row.inputs ?? {}).filter(([k]) => !order.includes(k)),
  ]);
  return {
    kickoff_id: row.id,
    crew: row.crew,
    status: row.status,
    state: CREWAI_STATE[row.status] as StatusResponse["state"],
    current_task: row.current_task,
    in_progress: tasks
      .filter((t) => t.status === "running" || t.status === "pending_human_input")
      .map((t) => t.task_id),
    progress: {
      completed_tasks: tasks.filter((t) => t.status === "completed").length,
      total_tasks: tasks.length,
    },
    tasks,
    pending_human_input: row.pending_human_input as StatusResponse["pending_human_input"],
    last_step: row.last_step as StatusResponse["last_step"],
    result: row.result,
    error: row.error,
    created_at: iso(row.created_at) as string,
    updated_at: iso(row.updated_at) as string,
    execution_time: executionTime,
    token_usage: { ...ZERO, ...row.token_usage },
    cost: runCost(row.tasks, prices),
    timing: {
      working_seconds:
        executionTime === null
          ? null
          : Math.max(0, Math.round((executionTime - reviewWaitSeconds) * 100) / 100),
      review_wait_seconds: reviewWaitSeconds,
    },
    inputs,
    meta: row.meta ?? {},
    started_by: startedBy(row),
    stopped_by: row.stopped_by ?? null,
    stopped_at: iso(row.stopped_at ?? null),
  };
}
