import type { CrewDef } from "@/lib/crew/schema";
import type { InputValue } from "@/lib/util/placeholders";
import type { FlowProgress } from "./flow-progress";
import type { OpenReview, PausedConversation } from "./review-types";
import type { ExecutionStatus, TaskStatus } from "./states";

export type TaskState = {
  task_id: string;
  name: string;
  agent: string;
  human_input: boolean;
  status: TaskStatus;
  attempts: number;
  output: string | null;
  error?: string | null;
  started_at: string | null;
  finished_at: string | null;
  execution_time: number | null;
  /** Tokens this task used, over all its attempts (absent on runs recorded before it was kept). */
  token_usage?: TokenUsage;
  /** The models that answered for this task. */
  models?: string[];
  /** Every review of this task, oldest first: the audit trail and the retry's feedback. */
  reviews?: Review[];
  /** The agent stopped for tool calls to be approved: where it goes on from once decided. */
  paused?: PausedConversation;
  /** Every decision on a tool call of this task, oldest first (never fed back as feedback). */
  tool_reviews?: ToolReview[];
};

/** A person's decision on a tool call that needed approval. */
export type ToolReview = {
  attempt: number;
  call_id: string;
  tool: string;
  approved: boolean;
  /** The model's arguments, and the reviewer's replacement when they edited them. */
  arguments: unknown;
  edited_arguments?: unknown;
  feedback: string;
  reviewer: string;
  at: string;
};

export type Review = {
  attempt: number;
  is_approve: boolean;
  feedback: string;
  /** What the reviewer saw: the agent's output. */
  output: string;
  /** Approved with edits: the text approved instead, and a unified diff from `output` to it. */
  edited_output?: string;
  diff?: string;
  /** The reviewer's answers to the task's response_schema form. */
  response?: Record<string, unknown>;
  /** Under a quorum: everyone who approved (the last of them is `reviewer`). */
  approvers?: string[];
  /** A flow's human feedback: the outcome the reviewer (or a passed deadline) chose. */
  outcome?: string;
  reviewer: string;
  at: string;
};

export type WebhookUrls = {
  task?: string;
  step?: string;
  crew?: string;
  stream?: StreamSubscription;
  /** An A2A client's push notification endpoints (lib/webhooks/protocol-push.ts). */
  a2a?: ProtocolPush[];
};
/** A protocol whose clients register push endpoints: its name keys them in `WebhookUrls`. */
export type PushProtocol = "a2a";
/** A protocol client's push endpoint as the run keeps it: its headers (credentials, token) sealed. */
export type ProtocolPush = { id: string; url: string; headers_sealed?: string };
/** A kickoff's `webhooks` object (CrewAI's webhook streaming), its token sealed. */
export type StreamSubscription = {
  url: string;
  events: string[];
  realtime: boolean;
  auth_sealed?: string;
};
export type TokenUsage = { input_tokens: number; output_tokens: number; total_tokens: number };

export type ExecutionRow = {
  id: string;
  crew: string;
  status: ExecutionStatus;
  owner_user_id: string | null;
  inputs: Record<string, InputValue>;
  meta: Record<string, unknown> | null;
  webhooks: WebhookUrls;
  /** The crew as the run was started; filled in from `crew_def` when read (withCrews). */
  crew_snapshot: CrewDef;
  /** The stored definition a local run names (lib/runs/crew-definitions.ts); null for a copy. */
  crew_def: string | null;
  tasks: TaskState[];
  current_task: string | null;
  pending_human_input: Record<string, unknown> | null;
  /** Every review open in the run (open-reviews.ts); [] when none. */
  open_reviews: OpenReview[];
  /** When the review clock next has a reminder or deadline to look at. */
  review_due_at: Date | null;
  last_step: Record<string, unknown> | null;
  result: string | null;
  error: string | null;
  token_usage: TokenUsage;
  /** How it was started (null for runs from before this was recorded). */
  started_via: "dashboard" | "api" | "deployment" | "schedule" | "trigger" | "experiment" | null;
  started_by_name: string | null;
  stopped_by: string | null;
  stopped_at: Date | null;
  /** Seconds spent awaiting review, summed over the reviews that ended. */
  review_wait_seconds: number;
  last_seq: number;
  /** Bumped by every change (lib/runs/execution-writer.ts guards its writes with it). */
  version: number;
  lease_owner: string | null;
  /** Set for a run of a remote deployment: its id there, and what the poller keeps about it. */
  deployment_id: string | null;
  remote_id: string | null;
  remote: RemoteState | null;
  next_poll_at: Date | null;
  /** A run a flow's method started (its crew, its agent): the flow's execution. */
  parent_id: string | null;
  /** A flow's run: where the flow stands (null for a crew's run). */
  flow: FlowProgress | null;
  /** The run this one was started again from (re-run with edits), and how. */
  origin_id: string | null;
  origin_kind: "rerun" | "fork" | null;
  /** Its concurrency key (lib/runs/concurrency.ts), scoped to its crew. */
  concurrency_key: string | null;
  /** The schedule or trigger that started it (started_via says which). */
  schedule_id: string | null;
  trigger_id: string | null;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
};

export type RemoteState = {
  /** "crewdeck" when the remote serves its event log (mirrored), "other" when only /status. */
  kind?: "crewdeck" | "other";
  last_remote_seq?: number;
  interval_ms?: number;
  last_step_hash?: string;
  raw_status?: unknown;
  last_error?: string | null;
};

export type NewEvent = {
  /** What the event is, when it comes from outside and may arrive twice (stored once). */
  key?: string;
  type: string;
  task_id?: string | null;
  attempt?: number | null;
  data?: Record<string, unknown>;
};

/** An event as written: its sequence number and time, its data never absent. */
export type AppliedEvent = Required<Omit<NewEvent, "data" | "key">> & {
  seq: number;
  data: Record<string, unknown>;
  created_at: string;
};
