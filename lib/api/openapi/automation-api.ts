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
import type { OperationSpec } from "./operations";

// Runs that start themselves: schedules (a cron expression in a time zone) and triggers (a signed
// webhook from someone else's system), each attributed to what started it.
const BASE = "/api/crews/{crew}";
const tag = "Schedules and triggers";
const notFound = "No such crew, or no such schedule or trigger on it.";
const pathParams = { id: "The schedule's or trigger's id." };

const crud = (
  kind: "schedule" | "trigger",
  schemas: { create: unknown; patch: unknown; one: unknown; list: unknown; created: unknown },
  notes: { create: string; invalid: string },
): OperationSpec[] => {
  const plural = `${kind}s`;
  const Name = kind[0]?.toUpperCase() + kind.slice(1);
  return [
    {
      method: "get",
      path: `${BASE}/${plural}`,
      operationId: `list${Name}s`,
      tag,
      summary: `The crew's ${plural}`,
      access: { action: "read" },
      responses: { 200: { description: "Oldest first.", schema: schemas.list as never } },
      problems: { 404: "No such crew." },
    },
    {
      method: "post",
      path: `${BASE}/${plural}`,
      operationId: `create${Name}`,
      tag,
      summary: `Create a ${kind}`,
      description: notes.create,
      access: { action: "start" },
      body: { schema: schemas.create as never },
      responses: { 201: { description: "Created.", schema: schemas.created as never } },
      problems: {
        400: "Malformed JSON or wrong value types.",
        404: "No such crew.",
        409: `The crew has as many ${plural} as it may.`,
        422: notes.invalid,
      },
    },
    {
      method: "get",
      path: `${BASE}/${plural}/{id}`,
      operationId: `get${Name}`,
      tag,
      summary: `One ${kind}`,
      access: { action: "read" },
      pathParams,
      responses: { 200: { description: "OK", schema: schemas.one as never } },
      problems: { 404: notFound },
    },
    {
      method: "patch",
      path: `${BASE}/${plural}/{id}`,
      operationId: `update${Name}`,
      tag,
      summary: `Change, pause or resume a ${kind}`,
      access: { action: "start" },
      pathParams,
      body: { schema: schemas.patch as never },
      responses: { 200: { description: "Changed.", schema: schemas.one as never } },
      problems: { 400: "Malformed JSON or wrong value types.", 404: notFound, 422: notes.invalid },
    },
    {
      method: "delete",
      path: `${BASE}/${plural}/{id}`,
      operationId: `delete${Name}`,
      tag,
      summary: `Delete a ${kind} (its runs stay, naming it)`,
      access: { action: "start" },
      pathParams,
      responses: { 204: { description: "Deleted." } },
      problems: { 404: notFound },
    },
  ];
};

export const automationApi: OperationSpec[] = [
  ...crud(
    "schedule",
    {
      create: ScheduleCreateSchema,
      patch: SchedulePatchSchema,
      one: ScheduleSchema,
      list: SchedulesResponseSchema,
      created: ScheduleSchema,
    },
    {
      create:
        "The crew runs with `inputs` at each due time of `cron` (five fields, read by croner) in `timezone`. Daylight saving: a fixed-time job whose time falls in a spring-forward gap runs at the first time after the gap; one whose time repeats (fall back) runs once, at the first; an interval job (`*/30 * * * *`) skips the missing times and runs at both repeated ones. Each due time fires once across every worker and restart. After downtime the latest `catch_up` due times run and the others are recorded as missed. `overlap` says what happens when the schedule's last run is still active. Local crews and flows only.",
      invalid:
        "A cron expression or time zone that cannot be used, or inputs the crew refuses (`errors` names the field; `missing_inputs`).",
    },
  ),
  {
    method: "get",
    path: `${BASE}/schedules/{id}/fires`,
    operationId: "listScheduleFires",
    tag,
    summary: "A schedule's due times: the run each started, or why none",
    access: { action: "read" },
    pathParams,
    responses: { 200: { description: "Newest first.", schema: ScheduleFiresResponseSchema } },
    problems: { 404: notFound },
  },
  ...crud(
    "trigger",
    {
      create: TriggerCreateSchema,
      patch: TriggerPatchSchema,
      one: TriggerSchema,
      list: TriggersResponseSchema,
      created: CreatedTriggerSchema,
    },
    {
      create:
        "An endpoint (`url`) where another system posts signed deliveries. Its answer holds the `secret`, this once. `mapping` turns the JSON payload into inputs, one expression per input: JSONPath (RFC 9535, starts with `$`) or CEL over `payload` and `headers`. `concurrency.key` is an expression too.",
      invalid:
        "An expression that does not parse, or a mapped input the crew does not have (`errors` names `mapping.<input>` or `concurrency.key`).",
    },
  ),
  {
    method: "post",
    path: `${BASE}/triggers/{id}/secret`,
    operationId: "rotateTriggerSecret",
    tag,
    summary: "Replace a trigger's secret (shown in this answer only)",
    access: { action: "start" },
    pathParams,
    responses: { 200: { description: "The new secret.", schema: CreatedTriggerSchema } },
    problems: { 404: notFound },
  },
  {
    method: "get",
    path: `${BASE}/triggers/{id}/events`,
    operationId: "listTriggerEvents",
    tag,
    summary: "Deliveries a trigger received: the run each started, or why not",
    access: { action: "read" },
    pathParams,
    responses: { 200: { description: "Newest first.", schema: TriggerEventsResponseSchema } },
    problems: { 404: notFound },
  },
  {
    method: "post",
    path: "/api/triggers/{id}",
    operationId: "deliverToTrigger",
    tag,
    summary: "Deliver an event to a trigger: its payload starts a run",
    description:
      "Signed as the trigger says: Standard Webhooks (`webhook-id`, `webhook-timestamp` within 5 minutes, `webhook-signature`), GitHub (`X-Hub-Signature-256`, `X-GitHub-Delivery`) or a shared secret (`Authorization: Bearer <secret>`, optionally `Idempotency-Key`). A delivery id seen before answers 200 with the run it started then. A GitHub delivery needs `X-GitHub-Delivery` (400 without); its body and signature seen within 30 days under another delivery id are a replay (409). Every delivery is logged at `…/triggers/{id}/events`.",
    access: { public: "the delivery's signature, made with the trigger's secret, is the proof" },
    pathParams: { id: "The trigger's id." },
    body: { schema: { type: "object" }, description: "The sender's JSON payload." },
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
  },
];
