import { z } from "zod";
import { CONCURRENCY_POLICIES, KickoffInputValueSchema } from "./crew";
import { crewNamedFields, editedFields } from "./fields";

// Triggers: an inbound endpoint per trigger that starts a run from someone else's signed webhook
// (lib/triggers). The mapping's expressions are checked where it is stored (lib/triggers).
export const TRIGGER_SIGNATURES = ["standard", "github", "shared"] as const;
export const TRIGGER_OUTCOMES = [
  "started",
  "duplicate",
  "unauthorized",
  "invalid",
  "limited",
  "refused",
] as const;

const TriggerConcurrencySchema = z
  .object({
    key: z
      .string({ error: "concurrency.key is an expression, e.g. $.issue.id" })
      .trim()
      .min(1, "concurrency.key is an expression, e.g. $.issue.id")
      .max(500)
      .describe("A JSONPath or CEL expression over the payload: its value is the run's key"),
    policy: z
      .enum(CONCURRENCY_POLICIES, { error: 'concurrency.policy is "reject", "enqueue" or "stop"' })
      .default("enqueue"),
  })
  .meta({ id: "TriggerConcurrency" });

const fields = {
  name: z
    .string({ error: "name is required" })
    .trim()
    .min(1, "name is required")
    .max(100, "name must be at most 100 characters"),
  mapping: z
    .record(z.string(), z.string(), { error: "mapping maps input names to expressions" })
    .describe(
      "Input name → expression over the payload: JSONPath (starts with $) or CEL (payload, headers)",
    ),
  inputs: z
    .record(z.string(), KickoffInputValueSchema, {
      error: "inputs must be an object mapping input names to values",
    })
    .describe("Fixed inputs; mapped values take their place"),
  concurrency: TriggerConcurrencySchema.nullable(),
  paused: z.boolean({ error: "paused is true or false" }),
};

export const TriggerCreateSchema = z
  .object({
    name: fields.name,
    signature: z
      .enum(TRIGGER_SIGNATURES, { error: 'signature is "standard", "github" or "shared"' })
      .default("standard")
      .describe(
        "standard: Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature); github: X-Hub-Signature-256; shared: the secret as a bearer token",
      ),
    mapping: fields.mapping.default({}),
    inputs: fields.inputs.default({}),
    concurrency: fields.concurrency.default(null),
    paused: fields.paused.default(false),
  })
  .meta({ id: "TriggerCreate" });

export const TriggerPatchSchema = z.object(fields).partial().meta({ id: "TriggerPatch" });

export type TriggerCreate = z.infer<typeof TriggerCreateSchema>;
export type TriggerPatch = z.infer<typeof TriggerPatchSchema>;

export const TriggerEventSchema = z
  .object({
    id: z.uuid(),
    received_at: z.string(),
    delivery_id: z.string().nullable(),
    outcome: z.enum(TRIGGER_OUTCOMES),
    status_code: z.number().int(),
    detail: z.string().nullable(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).nullable(),
    execution_id: z.string().nullable(),
  })
  .meta({ id: "TriggerEvent" });

export const TriggerSchema = z
  .object({
    ...crewNamedFields,
    signature: z.enum(TRIGGER_SIGNATURES),
    url: z.string().describe("Where the sender posts its deliveries"),
    mapping: z.record(z.string(), z.string()),
    inputs: z.record(z.string(), z.unknown()),
    concurrency: TriggerConcurrencySchema.nullable(),
    paused: z.boolean(),
    last_event: TriggerEventSchema.nullable(),
    ...editedFields,
  })
  .meta({ id: "Trigger" });

export const CreatedTriggerSchema = TriggerSchema.extend({
  secret: z.string().describe("Shown this once: give it to the sender"),
}).meta({ id: "CreatedTrigger" });

export type Trigger = z.infer<typeof TriggerSchema>;
export type TriggerEvent = z.infer<typeof TriggerEventSchema>;

export const TriggersResponseSchema = z
  .object({ triggers: z.array(TriggerSchema) })
  .meta({ id: "Triggers" });

export const TriggerEventsResponseSchema = z
  .object({ events: z.array(TriggerEventSchema) })
  .meta({ id: "TriggerEvents" });

export const TriggerDeliveryResponseSchema = z
  .object({
    kickoff_id: z.uuid(),
    event_id: z.uuid(),
    duplicate: z.boolean().describe("This delivery id was seen before: the run it started then"),
  })
  .meta({ id: "TriggerDelivery" });
