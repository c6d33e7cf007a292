import { z } from "zod";
import { EXECUTION_STATUSES, TASK_STATUSES } from "@/lib/runs/states";

// The API's request and response shapes: validation, TypeScript types and the OpenAPI document
// all come from here.
export const META_LIMIT_BYTES = 16 * 1024;
export const KICKOFF_BODY_LIMIT_BYTES = 1024 * 1024;

export const WebhookUrlSchema = z
  .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
  .max(2048, "must be at most 2048 characters");

export const InputValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()], {
  error: "input values must be a string, a number or a boolean",
});

export const KickoffRequestSchema = z
  .object({
    inputs: z
      .record(z.string(), InputValueSchema, {
        error: "inputs must be an object mapping input names to values",
      })
      .default({}),
    meta: z
      .record(z.string(), z.unknown(), { error: "meta must be a JSON object" })
      .refine((m) => Buffer.byteLength(JSON.stringify(m)) <= META_LIMIT_BYTES, {
        error: `meta must be at most ${META_LIMIT_BYTES} bytes of JSON`,
      })
      .optional(),
    taskWebhookUrl: WebhookUrlSchema.optional(),
    stepWebhookUrl: WebhookUrlSchema.optional(),
    crewWebhookUrl: WebhookUrlSchema.optional(),
  })
  .meta({ id: "KickoffRequest" });

export const KickoffResponseSchema = z
  .object({ kickoff_id: z.uuid() })
  .meta({ id: "KickoffResponse" });

export const InputsResponseSchema = z
  .object({
    inputs: z.array(z.string()).describe("Names of the inputs the crew requires, in order."),
  })
  .meta({ id: "InputsResponse" });

export const ResumeRequestSchema = z
  .object({
    execution_id: z.uuid({ error: "must be the kickoff_id (a UUID)" }),
    task_id: z.string({ error: "must be a string" }).min(1, "must not be empty"),
    human_feedback: z.string({ error: "must be a string" }),
    is_approve: z.boolean({ error: "must be true or false" }),
    taskWebhookUrl: WebhookUrlSchema.optional(),
    stepWebhookUrl: WebhookUrlSchema.optional(),
    crewWebhookUrl: WebhookUrlSchema.optional(),
  })
  .meta({ id: "ResumeRequest" });

export const ResumeResponseSchema = z
  .object({ status: z.enum(["resumed", "retrying", "completed"]), message: z.string() })
  .meta({ id: "ResumeResponse" });

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
    at: z.string(),
  })
  .meta({ id: "Step" });

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
  })
  .meta({ id: "TaskStatus" });

export const StatusResponseSchema = z
  .object({
    kickoff_id: z.uuid(),
    crew: z.string(),
    status: z.enum(EXECUTION_STATUSES),
    state: z.enum(["PENDING", "RUNNING", "PENDING_HUMAN_INPUT", "SUCCESS", "FAILURE", "REVOKED"]),
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
      .nullable(),
    last_step: StepSchema.nullable(),
    result: z.string().nullable(),
    error: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    execution_time: z.number().nullable().describe("Seconds from start to finish (or to now)"),
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

export const ProblemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    missing_inputs: z.array(z.string()).optional(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: "Problem" });

export type KickoffRequest = z.infer<typeof KickoffRequestSchema>;
export type ResumeRequest = z.infer<typeof ResumeRequestSchema>;
export type StatusResponse = z.infer<typeof StatusResponseSchema>;
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

// POST /api/integrations/test — optional body: the backend chosen on screen (a blank key uses the saved one).
export const TrackerTestRequestSchema = z.object({
  backend: z.enum(["embedded", "linear"]),
  linearKey: z
    .string()
    .trim()
    .max(500)
    .optional()
    .transform((k) => k || undefined),
});
export const ConnectionTestSchema = z.object({
  ok: z.boolean(),
  backend: z.string(),
  teams: z.array(z.string()).optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
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
export const DeliverySchema = z.object({
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
});
export type Delivery = z.infer<typeof DeliverySchema>;
export const DeliveriesPageSchema = z.object({
  deliveries: z.array(DeliverySchema),
  next_before: z.number().nullable(),
});
export type DeliveriesPage = z.infer<typeof DeliveriesPageSchema>;

export const DeploymentViewSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  base_url: z.string(),
  signs_webhooks: z.boolean(),
  created_at: z.string(),
});
export type DeploymentView = z.infer<typeof DeploymentViewSchema>;
/** What Test connection answers (lib/deployments/test-connection.ts builds it). */
export const ConnectionCheckSchema = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), inputs: z.array(z.string()), health: z.string() }),
  z.object({ ok: z.literal(false), step: z.enum(["health", "inputs"]), reason: z.string() }),
]);
export const DeploymentListSchema = z.object({ deployments: z.array(DeploymentViewSchema) });

export const TokenRowSchema = z.object({
  id: z.string(),
  kind: z.enum(["org", "user"]),
  email: z.string().nullable(),
  prefix: z.string(),
  label: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type TokenRow = z.infer<typeof TokenRowSchema>;
export const UserRowSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role: z.string(),
  has_password: z.boolean(),
  disabled: z.boolean(),
  created_at: z.string(),
});
export type UserRow = z.infer<typeof UserRowSchema>;
export const IntegrationTokenRowSchema = z.object({
  id: z.string(),
  prefix: z.string(),
  label: z.string().nullable(),
  access: z.enum(["read", "write"]),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type IntegrationTokenRow = z.infer<typeof IntegrationTokenRowSchema>;
export const TrackerSettingsViewSchema = z.object({
  backend: z.enum(["embedded", "linear"]),
  source: z.enum(["environment", "settings", "default"]),
  linear_key_saved: z.boolean(),
  linear_key_hint: z.string().nullable(),
});
export type TrackerSettingsView = z.infer<typeof TrackerSettingsViewSchema>;
export const LinearOAuthViewSchema = z.object({
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
});
export type LinearOAuthView = z.infer<typeof LinearOAuthViewSchema>;
