import type { TaskDef } from "@/lib/crew/schema";
import { openReview, openReviewsOf, reviewColumns } from "@/lib/run-model/open-reviews";
import type { DecidedCall, OpenReview, ToolCallUnderReview } from "@/lib/run-model/review-types";
import type {
  ExecutionRow,
  NewEvent,
  TaskState,
  ToolReview,
  WebhookUrls,
} from "@/lib/run-model/types";
import type { Change } from "@/lib/runs/execution-store";
import { afterDecision, type Decider } from "./decide";

/**
 * The review the agent's gated tool calls open: the task's `review:` rules (who, deadline) apply,
 * one approval decides each call, and its text says what would run, for clients that read only
 * `output`.
 */
export function toolCallReview(
  task: TaskDef,
  attempt: number,
  calls: ToolCallUnderReview[],
  now: Date,
  others: OpenReview[],
): OpenReview {
  const review = openReview(task, attempt, describeCalls(calls), now, others);
  return { ...review, required_approvals: 1, tool_calls: calls, response_schema: undefined };
}

function describeCalls(calls: ToolCallUnderReview[]): string {
  return calls
    .map((c) => {
      const from = c.server ? ` (MCP server ${c.server})` : "";
      return `The agent asks to call \`${c.tool}\`${from} with:\n\n\`\`\`json\n${JSON.stringify(c.arguments, null, 2)}\n\`\`\``;
    })
    .join("\n\n");
}

export type ToolDecision = {
  approved: boolean;
  /** The calls this decision covers (one, or every call not yet decided). */
  call_ids: string[];
  /** Replacement arguments (one call only), already checked against its schema. */
  edited_arguments?: unknown;
  feedback: string;
  /** Webhook URLs the decision subscribes, when it resumes a paused run (the seed's /resume). */
  webhooks?: WebhookUrls;
};

/**
 * Records a decision on gated tool calls. Once every call of the review is decided, the review
 * closes and the task is ready to go on from where its agent stopped: approved calls run with
 * their (possibly edited) arguments, refused ones answer the agent with the reason.
 */
export function decideToolCalls(
  row: ExecutionRow,
  review: OpenReview,
  who: Decider,
  decision: ToolDecision,
  now: Date,
): { change: Change; closed: boolean } {
  const at = now.toISOString();
  // The calls this decision decides: named by it, and not decided before.
  const deciding = new Set(
    undecidedCalls(review)
      .filter((c) => decision.call_ids.includes(c.call_id))
      .map((c) => c.call_id),
  );
  const calls = (review.tool_calls ?? []).map((c) =>
    deciding.has(c.call_id) ? withDecision(c, decision, who, at) : c,
  );
  const newly = calls.filter((c) => deciding.has(c.call_id));
  const events = newly.map((c) => submittedEvent(review, c, decision, who));
  const records = newly.map((c) => toolReviewOf(review, c, decision, who, at));
  const others = openReviewsOf(row).filter((r) => r.task_id !== review.task_id);
  const closed = calls.every((c) => c.decision);
  const tasks = row.tasks.map((t): TaskState => {
    if (t.task_id !== review.task_id) return t;
    const withRecords = { ...t, tool_reviews: [...(t.tool_reviews ?? []), ...records] };
    if (!closed || !t.paused) return withRecords;
    return { ...withRecords, status: "pending", paused: { ...t.paused, decided: decided(calls) } };
  });
  if (!closed) {
    const updated: OpenReview = { ...review, tool_calls: calls };
    return {
      closed,
      change: { patch: { tasks, ...reviewColumns([...others, updated], tasks) }, events },
    };
  }
  const resumed = { feedback: "", webhooks: decision.webhooks };
  return { closed, change: afterDecision(row, tasks, others, review, now, events, resumed, []) };
}

/** The call with this decision on it: its arguments as edited, or as the model wrote them. */
export function withDecision(
  call: ToolCallUnderReview,
  decision: ToolDecision,
  who: Decider,
  at: string,
): ToolCallUnderReview {
  const edited = decision.edited_arguments !== undefined;
  return {
    ...call,
    decision: {
      approved: decision.approved,
      arguments: edited ? decision.edited_arguments : call.arguments,
      edited,
      reason: decision.feedback,
      reviewer: who.name,
      at,
    },
  };
}

function submittedEvent(
  review: OpenReview,
  c: ToolCallUnderReview,
  decision: ToolDecision,
  who: Decider,
): NewEvent {
  const { task_id, attempt, output_sha256 } = review;
  return {
    type: "review_submitted",
    task_id,
    attempt,
    data: {
      kind: "tool_call",
      call_id: c.call_id,
      tool: c.tool,
      feedback: decision.feedback,
      reviewer: who.name,
      output_sha256,
      decision: decision.approved ? "approve" : "reject",
      effect: decision.approved ? "approved" : "refused",
      arguments: c.arguments,
      ...(c.decision?.edited ? { edited: true, edited_arguments: c.decision.arguments } : {}),
    },
  };
}

/** The decision on one call as the task's record of tool reviews keeps it. */
export function toolReviewOf(
  review: Pick<OpenReview, "attempt">,
  c: ToolCallUnderReview,
  decision: ToolDecision,
  who: Decider,
  at: string,
): ToolReview {
  const { call_id, tool, arguments: args } = c;
  const { approved, feedback } = decision;
  const edit = c.decision?.edited ? { edited_arguments: c.decision.arguments } : {};
  return {
    attempt: review.attempt,
    call_id,
    tool,
    approved,
    arguments: args,
    ...edit,
    feedback,
    reviewer: who.name,
    at,
  };
}

/** Every call of a closed review as the agent goes on with it: run as decided, or refused. */
export const decided = (calls: ToolCallUnderReview[]) =>
  calls.map(
    (c): DecidedCall => ({
      call_id: c.call_id,
      tool: c.tool,
      approved: !!c.decision?.approved,
      arguments: c.decision?.arguments ?? c.arguments,
      reason: c.decision?.reason ?? "",
      edited: !!c.decision?.edited,
    }),
  );

/** The review's tool calls nobody has decided yet. */
export function undecidedCalls(review: OpenReview): ToolCallUnderReview[] {
  return (review.tool_calls ?? []).filter((c) => !c.decision);
}
