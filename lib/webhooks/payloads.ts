import type { AppliedEvent, ExecutionRow, WebhookUrls } from "@/lib/run-model/types";
import { interpolate, PlaceholderBudgetError } from "@/lib/util/placeholders";

export type WebhookKind = "step" | "task" | "crew";

// Which event of the log becomes which webhook.
const KIND_OF: Record<string, WebhookKind> = {
  thought: "step",
  tool_call: "step",
  tool_result: "step",
  answer: "step",
  task_completed: "task",
  review_requested: "task",
  execution_completed: "crew",
  execution_failed: "crew",
  execution_cancelled: "crew",
};

export function webhookKind(eventType: string): WebhookKind | undefined {
  return KIND_OF[eventType];
}

export function targetUrl(kind: WebhookKind, urls: WebhookUrls) {
  return urls[kind];
}

function parseJson(text: string | null | undefined): unknown {
  if (!text) return null;
  const trimmed = text.trim();
  if (!/^[[{]/.test(trimmed)) return null;
  try {
    return JSON.parse(trimmed);
  } catch {
    return null;
  }
}

/**
 * A task's text with the run's inputs in, or null past its budget: the run failed on it already
 * (the prompt is built first), and a webhook is no place to raise it again.
 */
function filled(text: string, inputs: ExecutionRow["inputs"]): string | null {
  try {
    return interpolate(text, inputs);
  } catch (err) {
    if (err instanceof PlaceholderBudgetError) return null;
    throw err;
  }
}

/** Characters of a description read for its summary: ten words fit, a megabyte is not split. */
export const SUMMARY_SCAN_CHARS = 2_000;

/** A task webhook's `summary`: the description's first ten words and "...". */
export function taskSummary(description: string): string {
  const words = description.slice(0, SUMMARY_SCAN_CHARS).split(/\s+/, 10);
  return `${words.join(" ")}...`;
}

/** The body of one webhook: CrewAI's field names, plus where it sits in the execution's log. */
export function webhookPayload(
  kind: WebhookKind,
  row: ExecutionRow,
  event: AppliedEvent,
): Record<string, unknown> {
  const common = {
    event: kind,
    kickoff_id: row.id,
    execution_id: row.id,
    crew: row.crew,
    sequence: event.seq,
    timestamp: event.created_at,
    meta: row.meta ?? {},
  };
  const d = event.data;
  const task = row.crew_snapshot.tasks.find((t) => t.id === event.task_id);
  if (kind === "step") {
    return {
      ...common,
      type: event.type,
      task_id: event.task_id,
      agent: d.agent ?? task?.agent ?? null,
      attempt: event.attempt,
      prompt: task ? filled(task.description, row.inputs) : null,
      thought: event.type === "thought" ? (d.text ?? null) : null,
      tool: d.tool ?? null,
      tool_input: d.tool_input ?? null,
      result: event.type === "answer" ? (d.text ?? null) : (d.result ?? null),
    };
  }
  if (kind === "task") {
    const description = (task && filled(task.description, row.inputs)) ?? "";
    const output = typeof d.output === "string" ? d.output : null;
    return {
      ...common,
      task_id: event.task_id,
      name: task?.name ?? event.task_id,
      description,
      expected_output: task ? filled(task.expected_output, row.inputs) : null,
      summary: taskSummary(description),
      agent: task?.agent ?? d.agent ?? null,
      attempt: event.attempt,
      output,
      output_json: parseJson(output),
      requires_review: event.type === "review_requested",
    };
  }
  return {
    ...common,
    status: row.status,
    result: row.result,
    result_json: parseJson(row.result),
    error: row.error,
    token_usage: row.token_usage,
  };
}
