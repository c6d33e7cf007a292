import type { ModelMessage } from "ai";
import type { TimeoutAction } from "@/lib/crew/review-policy";

// The review shapes a run stores: its open reviews, and the tool calls that wait for a person.

/** One approval toward a review's quorum. */
export type Approval = {
  reviewer: string;
  user_id: string | null;
  at: string;
  feedback: string;
  response?: Record<string, unknown>;
  edited?: boolean;
};
export type Claim = { by: string; user_id: string | null; until: string };

/** A task output waiting for people's decision, kept in `executions.open_reviews`. */
export type OpenReview = {
  task_id: string;
  attempt: number;
  /** The text under review: the agent's output, or the last approver's edit of it. */
  output: string;
  /** The agent's own output, for the decision's diff. */
  agent_output: string;
  output_sha256: string;
  requested_at: string;
  assignees: string[];
  required_approvals: number;
  approvals: Approval[];
  claim: Claim | null;
  deadline_at: string | null;
  on_timeout: TimeoutAction | null;
  escalate_to: string[];
  /** Reminders still to send, earliest first. */
  reminders_at: string[];
  escalated_at?: string;
  /** The form the reviewer fills in, from the task's review block. */
  response_schema?: Record<string, unknown>;
  /** A review of tool calls the agent asked to make (requires_approval), not of an output. */
  tool_calls?: ToolCallUnderReview[];
  /**
   * Since when the run has had a review open without a break (the earliest request of reviews
   * that overlap): reviews open side by side count their wait once.
   */
  waiting_since?: string;
  /** A flow's human feedback: what it asks, and the outcomes the reviewer chooses among. */
  feedback?: { message: string; outcomes: string[]; default_outcome: string | null };
  /** The flow's nested run this review belongs to (shown on the flow, decided there). */
  execution_id?: string;
};

/** A gated tool call in a review: what the model asked for, and its decision once made. */
export type ToolCallUnderReview = GatedCall & {
  decision?: {
    approved: boolean;
    arguments: unknown;
    edited: boolean;
    reason: string;
    reviewer: string;
    at: string;
  };
};

/** A tool call the model asked for that waits for a person (the tool's `needsApproval`). */
export type GatedCall = {
  call_id: string;
  tool: string;
  arguments: unknown;
  /** The tool's parameters as JSON Schema: edited arguments are checked against it. */
  input_schema: Record<string, unknown>;
  source?: "builtin" | "tracker" | "mcp";
  server?: string;
  writes?: boolean;
};

/** A gated tool call once a person decided it: run with these arguments, or refused. */
export type DecidedCall = {
  call_id: string;
  tool: string;
  approved: boolean;
  /**
   * The arguments it runs with when edited (a reviewer's); unedited, the model's own, as shown
   * (secrets redacted): it then runs with the model's own from the saved conversation.
   */
  arguments: unknown;
  /** Why it was refused (the agent reads it as the call's result). */
  reason: string;
  edited: boolean;
};

/**
 * Where a task's agent stopped for approvals: the conversation to go on with, and the calls
 * decided so far (the agent goes on once every call of the review is).
 */
export type PausedConversation = {
  messages: ModelMessage[];
  steps_used: number;
  decided?: DecidedCall[];
};
