import type { z } from "zod";
import { type StatusResponse, StepSchema } from "@/lib/contract/status";
import type { StartedBy, TokenUsage } from "@/lib/contract/usage";
import { describeReview, openReviewsOf, waitingFor } from "@/lib/run-model/open-reviews";
import {
  DEFAULT_MODEL_PRICES,
  envModelPrices,
  type ModelPrices,
  tasksCost,
} from "@/lib/run-model/pricing";
import { CREWAI_STATE } from "@/lib/run-model/states";
import type { TaskState } from "@/lib/run-model/types";
import { fieldOf } from "@/lib/util/field";
import { isOneOf } from "@/lib/util/one-of";
import type { ExecutionSummary } from "./get-execution";

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const seconds = (from: Date | null, to: Date | null, now: Date) =>
  from ? Math.round(((to ?? now).getTime() - new Date(from).getTime()) / 10) / 100 : null;

const ZERO: TokenUsage = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };

/** How the run was started: a remote deployment's run says so; older runs have nothing. */
export function startedBy(row: {
  started_via: string | null;
  started_by_name: string | null;
  deployment_id: string | null;
  schedule_id?: string | null;
  trigger_id?: string | null;
  meta?: Record<string, unknown> | null;
}): StartedBy {
  if (row.deployment_id) return { via: "deployment", name: row.started_by_name };
  if (row.started_via === "dashboard" || row.started_via === "api")
    return { via: row.started_via, name: row.started_by_name };
  // A schedule or trigger deleted since leaves its name, without the link.
  if (row.started_via === "schedule" || row.started_via === "trigger") {
    const id = row.started_via === "schedule" ? row.schedule_id : row.trigger_id;
    return { via: row.started_via, name: row.started_by_name, ...(id ? { id } : {}) };
  }
  if (row.started_via === "experiment") {
    const id = row.meta?.experiment;
    return {
      via: "experiment",
      name: row.started_by_name,
      ...(typeof id === "string" ? { id } : {}),
    };
  }
  return null;
}

const STEP_TYPES = StepSchema.shape.type.options;
// Checked, not parsed: the stored step is served as written, its keys in their order.
const isStep = (v: unknown): v is z.infer<typeof StepSchema> => StepSchema.safeParse(v).success;

/**
 * The latest step as the schema has it. A remote deployment's run keeps only `{type, text}` of
 * its remote's step: shown as that step (a thought when its type is not one of ours).
 */
function lastStep(row: ExecutionSummary): StatusResponse["last_step"] {
  if (!row.last_step) return null;
  if (isStep(row.last_step)) return row.last_step;
  const type = fieldOf(row.last_step, "type");
  const text = fieldOf(row.last_step, "text");
  const words = typeof text === "string" ? text : typeof type === "string" ? type : "";
  return {
    type: typeof type === "string" && isOneOf(STEP_TYPES, type) ? type : "thought",
    task_id: row.current_task ?? "",
    agent: "",
    attempt: 0,
    text: words,
    at: row.updated_at.toISOString(),
  };
}

/** A task approved with an edit: who edited, and the agent's own output (kept reachable). */
function editOf(t: TaskState): { edited_by?: string; agent_output?: string } {
  const last = t.reviews?.at(-1);
  if (t.status !== "completed" || !last?.is_approve || last.edited_output === undefined) return {};
  return { edited_by: last.reviewer, agent_output: last.output };
}

/** Each task as /status lists it: its tokens always counted, an approved edit said. */
const taskViews = (tasks: TaskState[]) =>
  tasks.map((t) => ({
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
    ...editOf(t),
  }));

/** The run's inputs in the crew's order, then any the crew no longer names. */
export function orderedInputs(order: string[], inputs: Record<string, unknown>) {
  return Object.fromEntries([
    ...order.filter((k) => k in inputs).map((k) => [k, inputs[k] ?? null]),
    ...Object.entries(inputs).filter(([k]) => !order.includes(k)),
  ]);
}

type NestedReview = NonNullable<ExecutionSummary["nested_reviews"]>[number];

/** The review a client is to answer: the run's own, else one its nested runs await. */
const pendingOf = (
  row: ExecutionSummary,
  nested: NestedReview | undefined,
): StatusResponse["pending_human_input"] =>
  pendingReview(row) ??
  (nested
    ? {
        task_id: nested.task_id,
        output: nested.output,
        attempt: nested.attempt,
        requested_at: nested.requested_at,
      }
    : null);

/** CrewAI's crew output, once the run completed: its result and each task's. */
const crewOutput = (
  row: ExecutionSummary,
  tasks: ReturnType<typeof taskViews>,
): StatusResponse["crew_output"] =>
  row.status === "completed"
    ? {
        output: row.result ?? "",
        tasks: tasks.map((t) => ({
          task_id: t.task_id,
          output: t.output ?? "",
          agent: t.agent,
          execution_time: t.execution_time,
        })),
      }
    : null;

/** The /status body: our fields plus CrewAI's `state`, so both kinds of client read it. */
export function toStatusResponse(
  row: ExecutionSummary,
  prices: ModelPrices = { ...DEFAULT_MODEL_PRICES, ...envModelPrices() },
  now = new Date(),
): StatusResponse {
  const tasks = taskViews(row.tasks);
  const { execution_time, pending_human_inputs, timing } = clockFields(row, now);
  // A flow whose nested crew awaits review awaits it too, for its caller.
  const nested = row.nested_reviews?.[0];
  const status = row.status === "running" && nested ? "pending_human_input" : row.status;
  return {
    kickoff_id: row.id,
    crew: row.crew,
    status,
    state: CREWAI_STATE[status],
    current_task: row.current_task,
    in_progress: tasks
      .filter((t) => t.status === "running" || t.status === "pending_human_input")
      .map((t) => t.task_id),
    progress: {
      completed_tasks: tasks.filter((t) => t.status === "completed").length,
      total_tasks: tasks.length,
    },
    tasks,
    pending_human_input: pendingOf(row, nested),
    pending_human_inputs,
    last_step: lastStep(row),
    result: resultText(row),
    crew_output: crewOutput(row, tasks),
    error: row.error,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    execution_time,
    token_usage: { ...ZERO, ...row.token_usage },
    cost: tasksCost(row.tasks, prices),
    timing,
    inputs: orderedInputs(row.input_order ?? [], row.inputs ?? {}),
    meta: row.meta ?? {},
    started_by: startedBy(row),
    stopped_by: row.stopped_by ?? null,
    stopped_at: iso(row.stopped_at ?? null),
    flow: flowStatus(row),
    parent_execution_id: row.parent_id ?? null,
    origin:
      row.origin_id && row.origin_kind
        ? { execution_id: row.origin_id, kind: row.origin_kind }
        : null,
  };
}

function flowStatus(row: ExecutionSummary): StatusResponse["flow"] {
  const p = row.flow;
  if (!p) return null;
  const cur = p.current;
  return {
    current: cur
      ? {
          method: cur.method,
          nested_run: cur.awaiting_feedback ? null : (cur.children?.at(-1) ?? null),
          awaiting_feedback: cur.awaiting_feedback === true,
        }
      : null,
    path: p.steps.map((s) => ({
      method: s.method,
      outcome: s.outcome ?? null,
      feedback: s.feedback ?? null,
      nested_runs: s.children,
      started_at: s.started_at,
      finished_at: s.finished_at,
    })),
    queued: p.queue.map((q) => q.method),
    state: p.state,
  };
}

/** The fields that count up to now: the running time, review waits, claims on open reviews. */
function clockFields(row: ExecutionSummary, now: Date) {
  const executionTime = seconds(row.started_at, row.finished_at, now);
  const openReviews = reviewsOpenOn(row);
  const reviewWaitSeconds =
    Math.round(
      ((row.review_wait_seconds ?? 0) + (openReviews[0] ? waitingFor(openReviews[0], now) : 0)) *
        1000,
    ) / 1000;
  return {
    execution_time: executionTime,
    pending_human_inputs: openReviews.map((r) => describeReview(r, now)),
    timing: {
      working_seconds:
        executionTime === null
          ? null
          : Math.max(0, Math.round((executionTime - reviewWaitSeconds) * 1000) / 1000),
      review_wait_seconds: reviewWaitSeconds,
    },
  };
}

// A cached row (lib/runs/execution-cache.ts) is one object until the run changes: its body is
// made once, and only the fields that count up to now are made again per poll — none once the
// run has finished with no review open, when the JSON itself is kept. Polled hard, this was most
// of the route's own time (the last step's schema check, costs, the 6 kB JSON).
const bodies = new WeakMap<
  ExecutionSummary,
  { prices: ModelPrices; body: StatusResponse; still: boolean; json?: string }
>();

// A flow's own reviews, then those of its nested runs (decided on the flow by their task_id).
const reviewsOpenOn = (row: ExecutionSummary) => [
  ...openReviewsOf({ ...row, open_reviews: row.open_reviews ?? [] }),
  ...(row.nested_reviews ?? []),
];

/** The /status body as JSON (toStatusResponse), kept per cached row and price table. */
export function statusJson(row: ExecutionSummary, prices: ModelPrices): string {
  let kept = bodies.get(row);
  if (kept?.prices !== prices) {
    // Still: nothing in the body counts up any more (finished, no review open).
    const still = row.finished_at !== null && reviewsOpenOn(row).length === 0;
    kept = { prices, body: toStatusResponse(row, prices), still };
    bodies.set(row, kept);
  }
  if (kept.still) {
    kept.json ??= JSON.stringify(kept.body);
    return kept.json;
  }
  // Spread over the kept body, each field keeps its place in the JSON.
  return JSON.stringify({ ...kept.body, ...clockFields(row, new Date()) });
}

/**
 * `result` as CrewAI clients read it: the output once completed; on a failed or stopped run, why
 * it ended (Semantic Kernel reports "CrewAI Crew failed with error: {result}").
 */
function resultText(row: ExecutionSummary): string | null {
  if (row.status === "error" || row.status === "cancelled")
    return row.error ?? (row.status === "cancelled" ? "Stopped on request." : "Failed.");
  return row.result;
}

// Runs mirrored from a remote deployment before it was recorded have no `requested_at`: the
// contract promises one, so the row's last change stands in.
function pendingReview(row: ExecutionSummary): StatusResponse["pending_human_input"] {
  const p = row.pending_human_input;
  const taskId = fieldOf(p, "task_id");
  const output = fieldOf(p, "output");
  const attempt = fieldOf(p, "attempt");
  const requestedAt = fieldOf(p, "requested_at");
  if (typeof taskId !== "string" || !taskId) return null;
  return {
    task_id: taskId,
    output: typeof output === "string" ? output : "",
    attempt: typeof attempt === "number" ? attempt : 1,
    requested_at: typeof requestedAt === "string" ? requestedAt : row.updated_at.toISOString(),
  };
}
