import type { ExecutionRow, NewEvent, TokenUsage } from "@/lib/run-model/types";
import type { Change, ExecutionPatch, NewArtifact } from "@/lib/runs/execution-store";
import type { OversizedResult } from "@/lib/tools/agent-tools";
import type { AgentStep, AgentUsage } from "./run-agent";

const LAST_STEP_TEXT_LIMIT = 4_000;

const ZERO_USAGE: TokenUsage = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };

function addUsage(a: TokenUsage, b: { input_tokens: number; output_tokens: number }) {
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    total_tokens: a.total_tokens + b.input_tokens + b.output_tokens,
  };
}

/** Tokens count as they are spent, so a task that fails or is stopped still shows them. */
function spent(r: ExecutionRow, used: TokenUsage, index: number, modelId: string) {
  if (!used.total_tokens) return {};
  return {
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
  };
}

/**
 * The `onStep` of an agent working on task `index`: its steps go to the event log and the latest
 * to /status, and its tokens count as they are spent (a task that fails or is stopped still shows
 * them). A coworker doing delegated work records into the same task, saying who delegated.
 */
export function recordSteps({
  record,
  index,
  taskId,
  attempt,
  agentId,
  modelId,
  delegatedBy,
  oversized = [],
}: {
  record: (decide: (row: ExecutionRow) => Change) => unknown;
  index: number;
  taskId: string;
  attempt: number;
  agentId: string;
  modelId: string;
  delegatedBy?: string;
  /** Tool results cut for being too long, waiting to be kept whole as the run's files. */
  oversized?: OversizedResult[];
}) {
  const by = delegatedBy ? { delegated_by: delegatedBy } : {};
  return async (
    steps: AgentStep[],
    usage: AgentUsage,
    also?: (r: ExecutionRow) => ExecutionPatch,
  ) => {
    const used = addUsage(ZERO_USAGE, usage);
    if (!steps.length && !used.total_tokens && !also) return;
    // Whole results of this step's calls, kept beside the cut ones the event log shows.
    const kept = oversized.splice(0).map(
      (o): NewArtifact => ({
        task_id: taskId,
        name: fullResultName(taskId, o.call_id),
        content_type: "application/json",
        body: o.full,
        bytes: Buffer.byteLength(o.full),
      }),
    );
    const last = steps.at(-1);
    record((r) => ({
      artifacts: kept,
      patch: {
        ...also?.(r),
        ...(last
          ? { last_step: { ...stepView(last, taskId, agentId, attempt, modelId), ...by } }
          : {}),
        ...spent(r, used, index, modelId),
      },
      events: steps.map(
        (s): NewEvent => ({
          type: s.type,
          task_id: taskId,
          attempt,
          data: {
            agent: agentId,
            model: modelId,
            ...by,
            ...s,
            ...(s.type === "tool_result" &&
            kept.some((k) => k.name === fullResultName(taskId, s.call_id))
              ? { full_result: fullResultName(taskId, s.call_id) }
              : {}),
          },
        }),
      ),
    }));
  };
}

/** The run file that keeps a cut tool result whole. */
const fullResultName = (taskId: string, callId: string) =>
  `tool-results/${taskId}/${callId.replace(/[^A-Za-z0-9_.-]/g, "_")}.json`;

/** Other events of the task's work (output checks), with the tokens their model calls used. */
export function recordEvents({
  record,
  index,
  modelId,
}: {
  record: (decide: (row: ExecutionRow) => Change) => unknown;
  index: number;
  modelId: string;
}) {
  return async (events: NewEvent[], usage?: AgentUsage) => {
    const used = addUsage(ZERO_USAGE, usage ?? { input_tokens: 0, output_tokens: 0 });
    record((r) => ({
      patch: spent(r, used, index, modelId),
      events,
    }));
  };
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
