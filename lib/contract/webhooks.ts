import { z } from "zod";
import { STREAM_EVENT_NAMES } from "./webhook-subscription";

// Webhooks: the bodies this server POSTs, the delivery log and the receivers it offers.

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
export const RedeliverResponseSchema = z
  .object({ id: z.string(), status: z.string() })
  .meta({ id: "RedeliverResponse" });
export const WebhookSecretSchema = z.object({ secret: z.string() }).meta({ id: "WebhookSecret" });

// Webhook receivers.
export const ReceivedWebhookSchema = z
  .object({
    webhook_id: z.string(),
    duplicate: z.boolean().describe("True: this webhook-id was received before (stored once)"),
  })
  .meta({ id: "ReceivedWebhook" });

export const InboxSchema = z
  .object({
    received: z.array(
      z.object({ webhook_id: z.string(), received_at: z.string(), payload: z.unknown() }),
    ),
  })
  .meta({ id: "WebhookInbox" });

export const RemoteHookResultSchema = z
  .object({
    stored: z
      .union([z.number().int(), z.literal("mirrored")])
      .describe("Events stored into the run's log, or `mirrored` when the run mirrors its status"),
  })
  .meta({ id: "RemoteHookResult" });
