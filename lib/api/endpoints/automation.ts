import { z } from "zod";
import {
  ScheduleCreateSchema,
  ScheduleFiresResponseSchema,
  SchedulePatchSchema,
  ScheduleSchema,
  SchedulesResponseSchema,
} from "@/lib/contract/schedules";
import {
  CreatedTriggerSchema,
  TriggerCreateSchema,
  TriggerDeliveryResponseSchema,
  TriggerEventsResponseSchema,
  TriggerPatchSchema,
  TriggerSchema,
  TriggersResponseSchema,
} from "@/lib/contract/triggers";
import { endpoint } from "./endpoint";
import { BASE, crewCollection, read, start } from "./shared";

// Runs that start themselves: schedules (a cron expression in a time zone) and triggers (a signed
// webhook from someone else's system), each attributed to what started it.
const tag = "Schedules and triggers";
const notFound = "No such crew, or no such schedule or trigger on it.";
// Any string: the stores answer 404 for one that is no UUID, naming the schedule or trigger.
const params = { id: z.string().describe("The schedule's or trigger's id.") };

const scheduleCreate =
  "The crew runs with `inputs` at each due time of `cron` (five fields, read by croner) in `timezone`. Daylight saving: a fixed-time job whose time falls in a spring-forward gap runs at the first time after the gap; one whose time repeats (fall back) runs once, at the first; an interval job (`*/30 * * * *`) skips the missing times and runs at both repeated ones. Each due time fires once across every worker and restart. After downtime the latest `catch_up` due times run and the others are recorded as missed. `overlap` says what happens when the schedule's last run is still active. Local crews and flows only.";
const scheduleInvalid =
  "A cron expression or time zone that cannot be used, or inputs the crew refuses (`errors` names the field; `missing_inputs`).";
const triggerCreate =
  "An endpoint (`url`) where another system posts signed deliveries. Its answer holds the `secret`, this once. `mapping` turns the JSON payload into inputs, one expression per input: JSONPath (RFC 9535, starts with `$`) or CEL over `payload` and `headers`. `concurrency.key` is an expression too.";
const triggerInvalid =
  "An expression that does not parse, or a mapped input the crew does not have (`errors` names `mapping.<input>` or `concurrency.key`).";

const schedules = crewCollection(`${BASE}/schedules`, { tag, params, notFound });
const triggers = crewCollection(`${BASE}/triggers`, { tag, params, notFound });

export const listSchedules = schedules.list({
  operationId: "listSchedules",
  summary: "The crew's schedules",
  order: "Oldest first.",
  schema: SchedulesResponseSchema,
});

export const createSchedule = schedules.create({
  operationId: "createSchedule",
  summary: "Create a schedule",
  description: scheduleCreate,
  body: ScheduleCreateSchema,
  responses: { 201: { description: "Created.", schema: ScheduleSchema } },
  problems: { 409: "The crew has as many schedules as it may.", 422: scheduleInvalid },
});

export const getSchedule = schedules.get({
  operationId: "getSchedule",
  summary: "One schedule",
  schema: ScheduleSchema,
});

export const updateSchedule = schedules.update({
  operationId: "updateSchedule",
  summary: "Change, pause or resume a schedule",
  body: SchedulePatchSchema,
  schema: ScheduleSchema,
  invalid: scheduleInvalid,
});

export const deleteSchedule = schedules.remove({
  operationId: "deleteSchedule",
  summary: "Delete a schedule (its runs stay, naming it)",
});

export const listScheduleFires = endpoint({
  method: "GET",
  path: `${schedules.item}/fires`,
  operationId: "listScheduleFires",
  tag,
  summary: "A schedule's due times: the run each started, or why none",
  access: read,
  params,
  responses: { 200: { description: "Newest first.", schema: ScheduleFiresResponseSchema } },
  problems: schedules.missing,
});

export const listTriggers = triggers.list({
  operationId: "listTriggers",
  summary: "The crew's triggers",
  order: "Oldest first.",
  schema: TriggersResponseSchema,
});

export const createTrigger = triggers.create({
  operationId: "createTrigger",
  summary: "Create a trigger",
  description: triggerCreate,
  body: TriggerCreateSchema,
  responses: { 201: { description: "Created.", schema: CreatedTriggerSchema } },
  problems: { 409: "The crew has as many triggers as it may.", 422: triggerInvalid },
});

export const getTrigger = triggers.get({
  operationId: "getTrigger",
  summary: "One trigger",
  schema: TriggerSchema,
});

export const updateTrigger = triggers.update({
  operationId: "updateTrigger",
  summary: "Change, pause or resume a trigger",
  body: TriggerPatchSchema,
  schema: TriggerSchema,
  invalid: triggerInvalid,
});

export const deleteTrigger = triggers.remove({
  operationId: "deleteTrigger",
  summary: "Delete a trigger (its runs stay, naming it)",
});

export const rotateTriggerSecret = endpoint({
  method: "POST",
  path: `${triggers.item}/secret`,
  operationId: "rotateTriggerSecret",
  tag,
  summary: "Replace a trigger's secret (shown in this answer only)",
  access: start,
  params,
  responses: { 200: { description: "The new secret.", schema: CreatedTriggerSchema } },
  problems: triggers.missing,
});

export const listTriggerEvents = endpoint({
  method: "GET",
  path: `${triggers.item}/events`,
  operationId: "listTriggerEvents",
  tag,
  summary: "Deliveries a trigger received: the run each started, or why not",
  access: read,
  params,
  responses: { 200: { description: "Newest first.", schema: TriggerEventsResponseSchema } },
  problems: triggers.missing,
});

export const deliverToTrigger = endpoint({
  method: "POST",
  path: "/api/triggers/{id}",
  operationId: "deliverToTrigger",
  tag,
  summary: "Deliver an event to a trigger: its payload starts a run",
  description:
    "Signed as the trigger says: Standard Webhooks (`webhook-id`, `webhook-timestamp` within 5 minutes, `webhook-signature`), GitHub (`X-Hub-Signature-256`, `X-GitHub-Delivery`) or a shared secret (`Authorization: Bearer <secret>`, optionally `Idempotency-Key`). A delivery id seen before answers 200 with the run it started then. A GitHub delivery needs `X-GitHub-Delivery` (400 without); its body and signature seen within 30 days under another delivery id are a replay (409). Every delivery is logged at `…/triggers/{id}/events`.",
  access: { public: "the delivery's signature, made with the trigger's secret, is the proof" },
  params: { id: z.string().describe("The trigger's id.") },
  // Read by the handler as bytes, up to 1 MiB: the signature is over them exactly.
  ownBody: { schema: { type: "object" }, description: "The sender's JSON payload." },
  responses: {
    200: {
      description: "A redelivery: the run it started before.",
      schema: TriggerDeliveryResponseSchema,
    },
    202: { description: "A run was queued.", schema: TriggerDeliveryResponseSchema },
  },
  problems: {
    400: "The payload is not JSON.",
    401: "Missing, stale or wrong signature.",
    404: "No such trigger.",
    409: "The trigger is paused, its crew is not loaded, or its concurrency key's policy is reject and a run with the key is active.",
    413: "Payload over 1 MiB.",
    422: "The payload does not map to the crew's inputs (`errors` names `mapping.<input>`, `inputs.<name>` or `concurrency.key`).",
    429: "Over the trigger's deliveries per minute (`Retry-After`).",
  },
});
