import type { AppliedEvent, ExecutionRow } from "@/lib/run-model/types";

// CrewAI AMP's "webhook streaming" (the kickoff's `webhooks` object): the events of our log under
// CrewAI's event-bus names, POSTed as `{"events": [{id, execution_id, timestamp, type, data}]}`.
// Only names our engine has an event for can be asked for; the rest of CrewAI's list (flows,
// training, memory…) never happens here, so asking for them is an error rather than silence.

/** Our event type → CrewAI's event name. Thoughts and answers are what a model call returned. */
const CREWAI_NAME: Record<string, string> = {
  execution_started: "crew_kickoff_started",
  execution_completed: "crew_kickoff_completed",
  execution_failed: "crew_kickoff_failed",
  task_started: "task_started",
  task_completed: "task_completed",
  task_failed: "task_failed",
  thought: "llm_call_completed",
  answer: "llm_call_completed",
  tool_call: "tool_usage_started",
  tool_result: "tool_usage_finished",
  review_requested: "human_feedback_requested",
  review_submitted: "human_feedback_received",
};

/** CrewAI's name for one of our events, or undefined when it has none. */
export function streamEventName(e: Pick<AppliedEvent, "type" | "data">): string | undefined {
  // A tool that failed is CrewAI's tool_usage_error, not a finished use.
  if (e.type === "tool_result" && e.data.is_error === true) return "tool_usage_error";
  return CREWAI_NAME[e.type];
}

/** One entry of a streamed webhook's `events`. `sequence` orders them (HTTP may not). */
export function streamEvent(row: Pick<ExecutionRow, "id" | "crew">, e: AppliedEvent) {
  const d = e.data;
  const type = streamEventName(e);
  if (type === undefined) throw new Error(`event ${e.type} has no CrewAI stream name`);
  const data: Record<string, unknown> = {
    crew_name: row.crew,
    task_id: e.task_id,
    attempt: e.attempt,
    ...d,
  };
  if (type === "llm_call_completed") data.response = d.text ?? null;
  if (type.startsWith("tool_usage")) {
    data.tool_name = d.tool ?? null;
    data.tool_args = d.tool_input ?? null;
    if (type !== "tool_usage_started") data.output = d.result ?? null;
  }
  if (type === "crew_kickoff_completed") data.output = d.result ?? null;
  return {
    id: `${row.id}:${e.seq}`,
    execution_id: row.id,
    timestamp: e.created_at,
    type,
    sequence: e.seq,
    data,
  };
}
