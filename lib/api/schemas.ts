import { z } from "zod";
import { InputSchema } from "@/lib/crew/input-schema";
import { CREWAI_STATES, EXECUTION_STATUSES, TASK_STATUSES } from "@/lib/runs/states";
import { STREAM_EVENT_NAMES } from "@/lib/webhooks/stream-events";
import { LedgerEntrySchema, LedgerResponseSchema, LedgerVerdictSchema } from "./ledger-schemas";

// The API's request and response shapes: validation, TypeScript types and the OpenAPI document
// all come from here.
export const META_LIMIT_BYTES = 16 * 1024;
export const KICKOFF_BODY_LIMIT_BYTES = 1024 * 1024;

export const WebhookUrlSchema = z
  .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
  .max(2048, "must be at most 2048 characters");

/**
 * A callback URL at kickoff or resume, or none. CrewAI's clients send `null` for a callback they
 * were not given (Semantic Kernel's plugins, Python and .NET, always send all three) and some send
 * `""`: both mean "no callback", as they do on CrewAI.
 */
const CallbackUrlSchema = z
  .preprocess((v) => (v === null || v === "" ? undefined : v), WebhookUrlSchema.optional())
  .meta({
    type: ["string", "null"],
    format: "uri",
    description: "An http(s) URL to call back; null or an empty string mean none",
  });

export const InputValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()], {
  error: "input values must be a string, a number or a boolean",
});
// A json input also takes the JSON value itself; kickoff answers 400 for one anywhere else.
const KickoffInputValueSchema = z.union(
  [InputValueSchema, z.array(z.unknown()), z.record(z.string(), z.unknown())],
  { error: "input values must be a string, a number or a boolean" },
);

const EVENT_LIST = STREAM_EVENT_NAMES.join(", ");

/**
 * CrewAI AMP's webhook streaming: the listed events of the run, POSTed to `url` as
 * `{"events": [...]}`; `realtime` sends each at once, otherwise they are batched.
 */
export const StreamWebhooksSchema = z
  .object(
    {
      events: z
        .array(z.string({ error: "each event must be a string" }), {
          error: "must be a list of event names",
        })
        .min(1, `must list at least one event (valid events: ${EVENT_LIST})`)
        .superRefine((names, ctx) => {
          const valid: readonly string[] = STREAM_EVENT_NAMES;
          const unknown = [...new Set(names.filter((n) => !valid.includes(n)))];
          if (unknown.length)
            ctx.addIssue({
              code: "custom",
              message: `unknown event ${unknown.map((n) => `'${n}'`).join(", ")}; valid events: ${EVENT_LIST}`,
            });
        })
        .meta({ items: { type: "string", enum: [...STREAM_EVENT_NAMES] } }),
      url: WebhookUrlSchema,
      realtime: z
        .boolean({ error: "must be true or false" })
        .default(false)
        .describe(
          "true: one POST per event, as it happens; false: events batched (up to a second) into fewer POSTs",
        ),
      authentication: z
        .object(
          {
            strategy: z.literal("bearer", {
              error: 'must be "bearer" (the only strategy supported)',
            }),
            token: z
              .string({ error: "must be a string" })
              .min(1, "must not be empty")
              .max(4096, "must be at most 4096 characters"),
          },
          { error: "must be an object with strategy and token" },
        )
        .optional()
        .describe("Sent as `Authorization: Bearer <token>` with every POST"),
    },
    { error: "must be an object with events, url, realtime and authentication" },
  )
  .meta({ id: "StreamWebhooks" });
export type StreamWebhooks = z.infer<typeof StreamWebhooksSchema>;

export const KickoffRequestSchema = z
  .object({
    inputs: z
      .record(z.string(), KickoffInputValueSchema, {
        error: "inputs must be an object mapping input names to values",
      })
      .default({}),
    meta: z
      .record(z.string(), z.unknown(), { error: "meta must be a JSON object" })
      .refine((m) => Buffer.byteLength(JSON.stringify(m)) <= META_LIMIT_BYTES, {
        error: `meta must be at most ${META_LIMIT_BYTES} bytes of JSON`,
      })
      .optional(),
    taskWebhookUrl: CallbackUrlSchema,
    stepWebhookUrl: CallbackUrlSchema,
    crewWebhookUrl: CallbackUrlSchema,
    // null, as for the URLs, means none.
    webhooks: z.preprocess((v) => (v === null ? undefined : v), StreamWebhooksSchema.optional()),
  })
  .meta({ id: "KickoffRequest" });

export const KickoffResponseSchema = z
  .object({ kickoff_id: z.uuid() })
  .meta({ id: "KickoffResponse" });

export const InputsResponseSchema = z
  .object({
    inputs: z
      .array(z.string())
      .describe(
        "Names of the crew's inputs, in order (as CrewAI answers); `input_schema.required` says which must be given.",
      ),
    input_schema: InputSchema.describe(
      "The inputs as a JSON Schema object: type, title, description, default, examples, enum, format and `x-control` (the form control that suits it) per input; `required`; `x-order`. Inputs the crew does not type are required strings.",
    ),
  })
  .meta({ id: "InputsResponse" });

export const ResumeRequestSchema = z
  .object({
    execution_id: z.uuid({ error: "must be the kickoff_id (a UUID)" }),
    task_id: z.string({ error: "must be a string" }).min(1, "must not be empty"),
    human_feedback: z.string({ error: "must be a string" }),
    is_approve: z.boolean({ error: "must be true or false" }),
    edited_output: z
      .string({ error: "must be a string" })
      .max(1_000_000, "must be at most 1,000,000 characters")
      .optional()
      .describe(
        "Crewdeck's: approve this text instead of the agent's output (with is_approve: true). Later tasks get it as this task's output; the decision keeps both and their diff. A task with output_json takes JSON matching its schema.",
      ),
    review_response: z
      .record(z.string(), z.unknown(), { error: "must be an object" })
      .optional()
      .describe(
        "Crewdeck's: the reviewer's answers to the task's review.response_schema (a rating, a reason…), kept with the decision. Required when the task has one.",
      ),
    call_id: z
      .string({ error: "must be a string" })
      .min(1, "must not be empty")
      .max(200, "must be at most 200 characters")
      .optional()
      .describe(
        "Crewdeck's: the tool call this decision is about, when the task waits for approval of tool calls (`pending_human_inputs[].tool_calls[].call_id`). Without it, the decision covers every call not decided yet. human_feedback is the reason a refused call's agent reads.",
      ),
    edited_arguments: z
      .record(z.string(), z.unknown(), { error: "must be an object" })
      .optional()
      .describe(
        "Crewdeck's: run the tool call with these arguments instead of the model's (with is_approve: true and one call). Checked against the tool's input_schema.",
      ),
    taskWebhookUrl: CallbackUrlSchema,
    stepWebhookUrl: CallbackUrlSchema,
    crewWebhookUrl: CallbackUrlSchema,
  })
  .meta({ id: "ResumeRequest" });

export const OpenReviewSchema = z
  .object({
    task_id: z.string(),
    output: z.string().describe("The text under review (an approver's edit replaces the agent's)"),
    attempt: z.number().int(),
    requested_at: z.string(),
    assignees: z
      .array(z.string())
      .describe("People (e-mail) and roles or teams who may decide; empty: anyone who may review"),
    required_approvals: z.number().int(),
    approvals: z.array(z.object({ reviewer: z.string(), at: z.string() })),
    claimed_by: z.string().nullable(),
    claimed_until: z.string().nullable(),
    deadline_at: z.string().nullable(),
    on_timeout: z.enum(["approve", "send_back", "stop", "escalate"]).nullable(),
    response_schema: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe("The form the reviewer fills in (review_response on /resume)"),
    kind: z
      .enum(["output", "tool_call"])
      .describe("What waits: the task's output, or tool calls its agent asked to make"),
    tool_calls: z
      .array(
        z.object({
          call_id: z.string(),
          tool: z.string(),
          arguments: z.unknown().describe("Exactly what the model asked to run"),
          input_schema: z.record(z.string(), z.unknown()),
          source: z.enum(["builtin", "tracker", "mcp"]).nullable(),
          server: z.string().nullable().describe("The MCP server, for its tools"),
          writes: z.boolean().nullable(),
          decision: z
            .object({
              approved: z.boolean(),
              arguments: z.unknown(),
              edited: z.boolean(),
              reason: z.string(),
              reviewer: z.string(),
              at: z.string(),
            })
            .nullable(),
        }),
      )
      .nullable()
      .describe("The calls waiting for approval (kind tool_call), each decided on its own"),
  })
  .meta({ id: "OpenReview" });

export const ReviewActionSchema = z
  .discriminatedUnion(
    "action",
    [
      z.object({ action: z.literal("claim") }),
      z.object({ action: z.literal("release") }),
      z.object({
        action: z.literal("reassign"),
        assignees: z
          .array(z.string().trim().min(1).max(320), { error: "a list of e-mails, roles or teams" })
          .min(1, "name at least one person, role or team")
          .max(50),
      }),
    ],
    { error: "action is claim, release or reassign" },
  )
  .meta({ id: "ReviewAction" });

export const ReviewsQuerySchema = z.object({
  scope: z
    .enum(["mine", "team", "all"], { error: "scope is mine, team or all" })
    .default("all")
    .describe(
      "mine: named, claimed by you, or open to anyone who may review; team: given to a role or team you hold; all: every open review you may see",
    ),
});

export const InboxReviewSchema = OpenReviewSchema.extend({
  execution_id: z.uuid(),
  crew: z.string(),
  task_name: z.string(),
  inputs: z.record(z.string(), z.unknown()),
  started_by: z.string().nullable(),
  run_created_at: z.string(),
  remote: z.boolean().describe("A remote deployment's run: decided, not claimed or reassigned"),
  scope: z.object({ mine: z.boolean(), team: z.boolean() }),
}).meta({ id: "InboxReview" });

export const ReviewsResponseSchema = z
  .object({
    reviews: z.array(InboxReviewSchema),
    counts: z.object({ mine: z.number().int(), team: z.number().int(), all: z.number().int() }),
  })
  .meta({ id: "ReviewsResponse" });

export const ResumeResponseSchema = z
  .object({
    status: z
      .enum(["resumed", "retrying", "completed", "approval_recorded", "waiting"])
      .describe(
        "resumed: the run goes on; retrying: the task runs again with the feedback; completed: that was the last task; approval_recorded: more approvals are needed (review.required_approvals); waiting: approved, and the run still awaits other reviews",
      ),
    message: z.string(),
    approvals: z
      .object({ count: z.number().int(), required: z.number().int() })
      .optional()
      .describe("Approvals of this review so far, and how many it needs"),
  })
  .meta({ id: "ResumeResponse" });

/** An answer without a body (204). */
export const NoContentSchema = z.undefined();

export const StopResponseSchema = z
  .object({ status: z.literal("stopped"), kickoff_id: z.uuid() })
  .meta({ id: "StopResponse" });

export const StepSchema = z
  .object({
    type: z.enum(["thought", "tool_call", "tool_result", "answer"]),
    task_id: z.string(),
    agent: z.string(),
    attempt: z.number().int(),
    text: z.string().optional(),
    tool: z.string().optional(),
    tool_input: z.unknown().optional(),
    result: z.unknown().optional(),
    model: z.string().optional().describe("The model the agent ran on"),
    usage: z
      .object({ input_tokens: z.number(), output_tokens: z.number() })
      .optional()
      .describe("Tokens of the LLM call this step ends (on its answer or last tool call)"),
    at: z.string(),
  })
  .meta({ id: "Step" });

export const TokenUsageSchema = z
  .object({
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    total_tokens: z.number().int(),
  })
  .meta({ id: "TokenUsage" });

export const StartedBySchema = z
  .object({
    via: z.enum(["dashboard", "api", "deployment"]),
    name: z
      .string()
      .nullable()
      .describe("The person's e-mail (dashboard), the token's label or prefix (api)"),
  })
  .nullable()
  .describe("How the run was started; null for runs from before this was recorded")
  .meta({ id: "StartedBy" });

export const CostSchema = z
  .object({
    usd: z
      .number()
      .nullable()
      .describe("Estimated cost in US dollars; null when no model used has a known price"),
    estimated: z.literal(true),
    models: z.array(z.string()).describe("The models the run used"),
    unpriced_models: z.array(z.string()).describe("Models used that have no known price"),
  })
  .meta({ id: "Cost" });

export const RunTimingSchema = z
  .object({
    working_seconds: z
      .number()
      .nullable()
      .describe("Execution time minus the time spent awaiting review; null before it starts"),
    review_wait_seconds: z.number().describe("Seconds spent awaiting review, all reviews"),
  })
  .meta({ id: "RunTiming" });

export const TaskStatusSchema = z
  .object({
    task_id: z.string(),
    name: z.string(),
    agent: z.string(),
    status: z.enum(TASK_STATUSES),
    attempts: z.number().int(),
    output: z.string().nullable(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    execution_time: z.number().nullable().describe("Seconds"),
    token_usage: TokenUsageSchema.describe("Tokens this task used, over all its attempts"),
  })
  .meta({ id: "TaskStatus" });

export const CrewOutputSchema = z
  .object({
    output: z.string().describe("The final output (the last task's)"),
    tasks: z.array(
      z.object({
        task_id: z.string(),
        output: z.string(),
        agent: z.string(),
        execution_time: z.number().nullable().describe("Seconds"),
      }),
    ),
  })
  .meta({ id: "CrewOutput" });

export const StatusResponseSchema = z
  .object({
    kickoff_id: z.uuid(),
    crew: z.string(),
    status: z.enum(EXECUTION_STATUSES),
    state: z
      .enum(CREWAI_STATES)
      .describe(
        "CrewAI's state, in the values CrewAI clients parse: PENDING (queued), RUNNING (running or awaiting review), SUCCESS, FAILED (failed or stopped). `status` has the precise word.",
      ),
    current_task: z.string().nullable(),
    in_progress: z.array(z.string()),
    progress: z.object({ completed_tasks: z.number().int(), total_tasks: z.number().int() }),
    tasks: z.array(TaskStatusSchema),
    pending_human_input: z
      .object({
        task_id: z.string(),
        output: z.string(),
        attempt: z.number().int(),
        requested_at: z.string(),
      })
      .nullable()
      .describe("The first open review (in task order): what clients that know one review read"),
    pending_human_inputs: z
      .array(OpenReviewSchema)
      .describe(
        "Every open review: several when tasks running in parallel each await review. Resume each by its task_id.",
      ),
    last_step: StepSchema.nullable(),
    result: z
      .string()
      .nullable()
      .describe(
        "The final output as text (what CrewAI clients read); on a failed or stopped run, why it ended",
      ),
    crew_output: CrewOutputSchema.nullable().describe(
      "CrewAI's structured result ({output, tasks}) once the run has completed; null before",
    ),
    error: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    execution_time: z.number().nullable().describe("Seconds from start to finish (or to now)"),
    token_usage: TokenUsageSchema.describe("Tokens the whole run used"),
    cost: CostSchema,
    timing: RunTimingSchema,
    inputs: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
      .describe("The kickoff's inputs, in the crew's input order"),
    meta: z.record(z.string(), z.unknown()).describe("The `meta` object given at kickoff"),
    started_by: StartedBySchema,
    stopped_by: z.string().nullable().describe("Who stopped the run, if it was stopped"),
    stopped_at: z.string().nullable(),
  })
  .meta({ id: "ExecutionStatus" });

export const EventSchema = z
  .object({
    seq: z.number().int(),
    type: z.string(),
    task_id: z.string().nullable(),
    attempt: z.number().int().nullable(),
    data: z.record(z.string(), z.unknown()),
    created_at: z.string(),
  })
  .meta({ id: "ExecutionEvent" });

export const EventsQuerySchema = z.object({
  after: z.coerce
    .number({ error: "after must be a number" })
    .int("after must be an integer")
    .min(0)
    .default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(500),
});

export const EventsResponseSchema = z
  .object({ events: z.array(EventSchema), last_seq: z.number().int(), has_more: z.boolean() })
  .meta({ id: "ExecutionEvents" });

export const ArtifactSchema = z
  .object({
    name: z.string().describe("The task's output_file, its {inputs} filled in"),
    task_id: z.string(),
    content_type: z.string(),
    bytes: z.number().int(),
    created_at: z.string(),
    download_url: z.string().describe("Where to download it (same authorization as /status)"),
  })
  .meta({ id: "Artifact" });

export const ArtifactsResponseSchema = z
  .object({ artifacts: z.array(ArtifactSchema) })
  .meta({ id: "ExecutionArtifacts" });

export type Artifact = z.infer<typeof ArtifactSchema>;

export const ProblemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    error: z
      .union([z.string(), z.object({ code: z.string(), message: z.string() })])
      .describe(
        "CrewAI's error member: the kind of error (e.g. 'Validation Error'); on integration actions, {code, message} as CrewAI's platform tools read it",
      ),
    message: z.string().describe("CrewAI's message member: the same text as `detail`"),
    details: z
      .object({ missing_inputs: z.array(z.string()) })
      .optional()
      .describe("CrewAI's validation details (422 for missing inputs)"),
    missing_inputs: z.array(z.string()).optional(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: "Problem" });

// The dashboard's saved views of the runs list (defined beside their store).
export {
  SavedViewInputSchema,
  SavedViewSchema,
  SavedViewsResponseSchema,
} from "@/lib/views/schema";

export type KickoffRequest = z.infer<typeof KickoffRequestSchema>;
export type ResumeRequest = z.infer<typeof ResumeRequestSchema>;
export type ReviewAction = z.infer<typeof ReviewActionSchema>;
export type OpenReviewView = z.infer<typeof OpenReviewSchema>;
export type InboxReview = z.infer<typeof InboxReviewSchema>;
export type ReviewsResponse = z.infer<typeof ReviewsResponseSchema>;
export type StatusResponse = z.infer<typeof StatusResponseSchema>;
export type TokenUsage = z.infer<typeof TokenUsageSchema>;
export type StartedBy = z.infer<typeof StartedBySchema>;
export type Cost = z.infer<typeof CostSchema>;
export type ExecutionEvent = z.infer<typeof EventSchema>;

// Webhook bodies (CrewAI's field names, plus where the event sits in the execution's log).
const webhookCommon = {
  kickoff_id: z.uuid(),
  execution_id: z.uuid().describe("Same as kickoff_id: what /resume calls it"),
  crew: z.string(),
  sequence: z.number().int().describe("The event's sequence number in the execution's log"),
  timestamp: z.string().describe("When the event happened (ISO 8601)"),
  meta: z.record(z.string(), z.unknown()).describe("The `meta` object given at kickoff"),
};

export const StepWebhookSchema = z
  .object({
    event: z.literal("step"),
    ...webhookCommon,
    type: z.enum(["thought", "tool_call", "tool_result", "answer"]),
    task_id: z.string(),
    agent: z.string().nullable(),
    attempt: z.number().int(),
    prompt: z.string().nullable().describe("The task the agent works on"),
    thought: z.string().nullable(),
    tool: z.string().nullable(),
    tool_input: z.unknown(),
    result: z.unknown().describe("A tool's result, or the answer's text"),
  })
  .meta({ id: "StepWebhook" });

export const TaskWebhookSchema = z
  .object({
    event: z.literal("task"),
    ...webhookCommon,
    task_id: z.string(),
    name: z.string(),
    description: z.string(),
    expected_output: z.string().nullable(),
    summary: z.string(),
    agent: z.string().nullable(),
    attempt: z.number().int(),
    output: z.string().nullable(),
    output_json: z.unknown().describe("The output parsed, when it is JSON; otherwise null"),
    requires_review: z
      .boolean()
      .describe("True: the execution now awaits POST /resume for this task"),
  })
  .meta({ id: "TaskWebhook" });

export const CrewWebhookSchema = z
  .object({
    event: z.literal("crew"),
    ...webhookCommon,
    status: z.enum(["completed", "error", "cancelled"]),
    result: z.string().nullable(),
    result_json: z.unknown(),
    error: z.string().nullable(),
    token_usage: z.object({
      input_tokens: z.number(),
      output_tokens: z.number(),
      total_tokens: z.number(),
    }),
  })
  .meta({ id: "CrewWebhook" });

export const StreamWebhookSchema = z
  .object({
    events: z.array(
      z.object({
        id: z.string().describe("`<execution_id>:<sequence>`: stable, deduplicate on it"),
        execution_id: z.uuid(),
        timestamp: z.string().describe("When the event happened (ISO 8601)"),
        type: z.enum(STREAM_EVENT_NAMES).describe("CrewAI's event name"),
        sequence: z.number().int().describe("The event's sequence number: orders the events"),
        data: z
          .record(z.string(), z.unknown())
          .describe(
            "The event's fields: task_id, attempt, agent, output; response (llm_call_completed); tool_name, tool_args, output (tool_usage_*)",
          ),
      }),
    ),
  })
  .meta({ id: "StreamWebhook" });

// GET /api/runs: one page of the runs table.
export const RunRowSchema = z
  .object({
    id: z.uuid(),
    crew: z.string(),
    status: z.enum(EXECUTION_STATUSES),
    started_by: StartedBySchema,
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    inputs: z.record(z.string(), z.unknown()),
    meta: z.record(z.string(), z.unknown()),
    pending_human_input: z
      .object({
        task_id: z.string(),
        output: z.string(),
        attempt: z.number().int(),
        requested_at: z.string().optional().describe("Absent for some remote deployments' runs"),
      })
      .nullable(),
    error: z.string().nullable(),
    token_usage: TokenUsageSchema,
    cost_usd: z
      .number()
      .nullable()
      .describe("Estimated; null when no model the run used has a known price"),
    models: z.array(z.string()),
    duration_seconds: z.number().nullable().describe("Start to finish; null until it finishes"),
    review_wait_seconds: z.number(),
  })
  .meta({ id: "RunRow" });

export const RunsPageSchema = z
  .object({
    runs: z.array(RunRowSchema),
    per_page: z.number().int(),
    next_cursor: z.string().nullable(),
    prev_cursor: z.string().nullable(),
    total: z.number().int(),
    total_capped: z.boolean().describe("True: more than `total` runs match"),
  })
  .meta({ id: "RunsPage" });

// GET /api/runs/stats: the overview's figures.
export const RunStatsDaySchema = z.object({
  day: z.string().describe("YYYY-MM-DD (server time zone)"),
  completed: z.number().int(),
  error: z.number().int(),
  cancelled: z.number().int(),
  other: z.number().int(),
  avg_seconds: z.number().nullable(),
  max_seconds: z.number().nullable(),
  p50_seconds: z.number().nullable().describe("Median duration of the day's completed runs"),
  p95_seconds: z.number().nullable(),
  review_wait_p50_seconds: z
    .number()
    .nullable()
    .describe("Median review wait of the day's completed runs that waited for review"),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cost_usd: z.number().nullable(),
});

export const RunStatsSchema = z
  .object({
    awaiting_review: z.number().int(),
    running: z.number().int(),
    window_days: z.number().int(),
    days: z.array(RunStatsDaySchema),
    totals: z.object({
      runs: z.number().int(),
      completed: z.number().int(),
      failed: z.number().int(),
      stopped: z.number().int(),
      failure_rate: z
        .number()
        .nullable()
        .describe("failed / finished (completed + failed + stopped); null when none finished"),
      input_tokens: z.number().int(),
      output_tokens: z.number().int(),
      cost_usd: z.number().nullable(),
      p50_seconds: z.number().nullable(),
      p95_seconds: z.number().nullable(),
    }),
  })
  .meta({ id: "RunStats" });

export const RunStatsQuerySchema = z.object({
  days: z.coerce
    .number({ error: "days must be a number" })
    .int("days must be a whole number")
    .min(1, "days must be 1 to 90")
    .max(90, "days must be 1 to 90")
    .default(14),
});

// GET /api/runs/review-stats: how reviews went (issue 15, item 7), from the runs' review events.
const seconds = z.number().nullable();
export const ReviewFiguresSchema = z.object({
  requests: z.number().int().describe("Review requests (one per task attempt that waited)"),
  answered: z.number().int().describe("Requests a person acted on (claimed, voted or decided)"),
  first_review_p50_seconds: seconds.describe(
    "Median time from a review request to the first person's action on it",
  ),
  first_review_p95_seconds: seconds,
  decisions: z
    .number()
    .int()
    .describe("Final decisions: approved or sent back (a quorum's single votes are not counted)"),
  approved: z.number().int(),
  sent_back: z.number().int(),
  approval_rate: z.number().nullable().describe("approved / decisions; null without decisions"),
  reviewed_tasks: z.number().int().describe("Tasks (per run) with at least one decision or vote"),
  send_back_rounds_avg: z.number().nullable().describe("Send-backs per reviewed task, on average"),
  send_back_rounds_max: z.number().int(),
  timeouts: z.number().int(),
  timeouts_by_action: z
    .record(z.string(), z.number().int())
    .describe("Timed-out reviews by what the deadline did: approve, send_back, stop, escalate"),
});
export const ReviewStatsSchema = z
  .object({
    window_days: z.number().int(),
    crew: z.string().nullable(),
    totals: ReviewFiguresSchema,
    by_crew: z.array(ReviewFiguresSchema.extend({ crew: z.string() })),
    by_reviewer: z.array(
      z.object({
        reviewer: z.string().describe("E-mail, or the token that decided"),
        decisions: z.number().int().describe("Every decision and quorum vote they gave"),
        approvals: z.number().int(),
        sent_back: z.number().int(),
        approval_rate: z.number().nullable(),
        decide_p50_seconds: seconds.describe("Median time from the request to their decision"),
      }),
    ),
  })
  .meta({ id: "ReviewStats" });

export const ReviewStatsQuerySchema = RunStatsQuerySchema.extend({
  crew: z.string().trim().min(1).max(200).optional().describe("Only this crew's runs"),
});

export type RunRow = z.infer<typeof RunRowSchema>;
export type RunsPage = z.infer<typeof RunsPageSchema>;
export type RunStats = z.infer<typeof RunStatsSchema>;
export type ReviewFigures = z.infer<typeof ReviewFiguresSchema>;
export type ReviewStats = z.infer<typeof ReviewStatsSchema>;

// POST /api/integrations/test — optional body: the backend chosen on screen (a blank key uses the saved one).
export const TrackerTestRequestSchema = z
  .object({
    backend: z.enum(["embedded", "linear"]),
    linearKey: z
      .string()
      .trim()
      .max(500)
      .optional()
      .transform((k) => k || undefined),
  })
  .meta({ id: "TrackerTestRequest" });
export const ConnectionTestSchema = z
  .object({
    ok: z.boolean(),
    backend: z.string(),
    teams: z.array(z.string()).optional(),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
  })
  .meta({ id: "ConnectionTest" });
export type ConnectionTest = z.infer<typeof ConnectionTestSchema>;

// Settings: webhook deliveries (URLs redacted by the server) and remote deployments.
const DeliveryAttemptSchema = z.object({
  attempt: z.number(),
  started_at: z.string(),
  status_code: z.number().nullable(),
  latency_ms: z.number(),
  error: z.string().nullable(),
});

/** One delivery as GET /api/webhooks/deliveries answers it (URLs with their secrets redacted). */
export const DeliverySchema = z
  .object({
    id: z.string(),
    position: z.number(),
    execution_id: z.string(),
    crew: z.string().nullable(),
    event_seq: z.number().nullable(),
    kind: z.string(),
    url: z.string(),
    status: z.enum(["pending", "delivering", "succeeded", "failed"]),
    attempts: z.number(),
    next_attempt_at: z.string().nullable(),
    last_status_code: z.number().nullable(),
    last_error: z.string().nullable(),
    created_at: z.string(),
    finished_at: z.string().nullable(),
    attempts_log: z.array(DeliveryAttemptSchema),
  })
  .meta({ id: "Delivery" });
export type Delivery = z.infer<typeof DeliverySchema>;
export const DeliveriesPageSchema = z
  .object({
    deliveries: z.array(DeliverySchema),
    next_before: z.number().nullable(),
  })
  .meta({ id: "DeliveriesPage" });
export type DeliveriesPage = z.infer<typeof DeliveriesPageSchema>;

export const DeploymentViewSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    base_url: z.string(),
    signs_webhooks: z.boolean(),
    created_at: z.string(),
  })
  .meta({ id: "Deployment" });
export type DeploymentView = z.infer<typeof DeploymentViewSchema>;
/** What Test connection answers (lib/deployments/test-connection.ts builds it). */
export const ConnectionCheckSchema = z
  .discriminatedUnion("ok", [
    z.object({ ok: z.literal(true), inputs: z.array(z.string()), health: z.string() }),
    z.object({ ok: z.literal(false), step: z.enum(["health", "inputs"]), reason: z.string() }),
  ])
  .meta({ id: "ConnectionCheck" });
export const DeploymentListSchema = z
  .object({ deployments: z.array(DeploymentViewSchema) })
  .meta({ id: "DeploymentList" });

export const TokenRowSchema = z
  .object({
    id: z.string(),
    kind: z.enum(["org", "user"]),
    email: z.string().nullable(),
    prefix: z.string(),
    label: z.string().nullable(),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
  })
  .meta({ id: "Token" });
export type TokenRow = z.infer<typeof TokenRowSchema>;
export const UserRowSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    role: z.string(),
    teams: z.array(z.string()).describe("Team names a crew's review block may assign to"),
    has_password: z.boolean(),
    disabled: z.boolean(),
    created_at: z.string(),
  })
  .meta({ id: "User" });
export type UserRow = z.infer<typeof UserRowSchema>;
export const IntegrationTokenRowSchema = z
  .object({
    id: z.string(),
    prefix: z.string(),
    label: z.string().nullable(),
    access: z.enum(["read", "write"]),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
  })
  .meta({ id: "IntegrationToken" });
export type IntegrationTokenRow = z.infer<typeof IntegrationTokenRowSchema>;
export const TrackerSettingsViewSchema = z
  .object({
    backend: z.enum(["embedded", "linear"]),
    source: z.enum(["environment", "settings", "default"]),
    linear_key_saved: z.boolean(),
    linear_key_hint: z.string().nullable(),
  })
  .meta({ id: "TrackerSettingsView" });
export type TrackerSettingsView = z.infer<typeof TrackerSettingsViewSchema>;
export const LinearOAuthViewSchema = z
  .object({
    app_configured: z.boolean(),
    app_source: z.enum(["environment", "settings"]).nullable(),
    client_id: z.string().nullable(),
    scopes_requested: z.array(z.string()),
    redirect_uri: z.string(),
    connection: z
      .object({
        status: z.enum(["connected", "revoked"]),
        workspace: z.string(),
        connected_by: z.string(),
        connected_at: z.string(),
        scopes: z.array(z.string()),
      })
      .nullable(),
  })
  .meta({ id: "LinearOAuthView" });
export type LinearOAuthView = z.infer<typeof LinearOAuthViewSchema>;

// Small answers of the settings routes.
export const TokensListSchema = z
  .object({ tokens: z.array(TokenRowSchema) })
  .meta({ id: "TokenList" });
export const CreatedTokenSchema = z
  .object({ id: z.string(), token: z.string().describe("Shown once") })
  .passthrough()
  .meta({ id: "CreatedToken" });
export const UsersListSchema = z.object({ users: z.array(UserRowSchema) }).meta({ id: "UserList" });
export const UnlockedUserSchema = z
  .object({
    email: z.string(),
    locked_pairs: z.number().int().describe("Account-and-address locks that were in force"),
  })
  .meta({ id: "UnlockedUser" });
export const RedeliverResponseSchema = z
  .object({ id: z.string(), status: z.string() })
  .meta({ id: "RedeliverResponse" });
export const WebhookSecretSchema = z.object({ secret: z.string() }).meta({ id: "WebhookSecret" });
export const IntegrationTokensListSchema = z
  .object({ tokens: z.array(IntegrationTokenRowSchema) })
  .meta({ id: "IntegrationTokenList" });

// The decision ledger's shapes live beside its routes; re-exported for the dashboard's client.
export { LedgerEntrySchema, LedgerResponseSchema, LedgerVerdictSchema };
export type LedgerEntry = z.infer<typeof LedgerEntrySchema>;
export type LedgerVerdict = z.infer<typeof LedgerVerdictSchema>;
// Notifications: SMTP/Slack settings and each person's preferences (lib/notify/schemas.ts).
export {
  NotificationPrefsSchema,
  NotifySettingsViewSchema,
  TestEmailResultSchema,
} from "@/lib/notify/schemas";
// Agents' tools: MCP servers and their secrets in Settings (lib/tools/mcp/schemas.ts).
export {
  McpSecretsViewSchema,
  McpServersViewSchema,
  McpTestResultSchema,
} from "@/lib/tools/mcp/schemas";
