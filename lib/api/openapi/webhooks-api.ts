import {
  DeliveriesPageSchema,
  InboxSchema,
  ReceivedWebhookSchema,
  RedeliverResponseSchema,
  RemoteHookResultSchema,
  WebhookSecretSchema,
} from "@/lib/contract/webhooks";
import { DeliveriesQuerySchema } from "@/lib/webhooks/deliveries";
import type { OperationSpec } from "./operations";

// The outbox of webhook deliveries, and the receivers this server offers to others.
const tag = "Webhooks";

export const webhooksApi: OperationSpec[] = [
  {
    method: "get",
    path: "/api/webhooks/deliveries",
    operationId: "listDeliveries",
    tag,
    summary: "The delivery log: every webhook delivery and each of its attempts",
    description:
      "Newest first; URLs come back with their secrets redacted. Page with `before` from `next_before`.",
    access: { action: "manage" },
    query: DeliveriesQuerySchema,
    responses: { 200: { description: "One page.", schema: DeliveriesPageSchema } },
    problems: { 400: "Invalid query parameters." },
  },
  {
    method: "post",
    path: "/api/webhooks/deliveries/{id}/redeliver",
    operationId: "redeliver",
    tag,
    summary: "Try a delivery again now",
    access: { action: "manage" },
    pathParams: { id: "The delivery's id." },
    responses: { 200: { description: "Queued again.", schema: RedeliverResponseSchema } },
    problems: { 404: "No such delivery.", 409: "The delivery is being attempted right now." },
  },
  {
    method: "get",
    path: "/api/settings/webhook-secret",
    operationId: "webhookSecret",
    tag,
    summary: "The signing secret (`whsec_…`), for setting up a receiver",
    access: { action: "admin" },
    responses: { 200: { description: "OK", schema: WebhookSecretSchema } },
  },
  {
    method: "post",
    path: "/api/hooks/receive",
    operationId: "receiveWebhook",
    tag,
    summary: "Receive a webhook signed with this server's WEBHOOK_SECRET",
    description:
      "A Standard Webhooks receiver (for testing endpoints and chaining deployments): each `webhook-id` is stored once.",
    access: {
      public:
        "the Standard Webhooks signature (`webhook-id`, `webhook-timestamp`, `webhook-signature`) is the proof",
    },
    body: { schema: { type: "object" }, description: "Any JSON object." },
    responses: { 200: { description: "Stored (or a duplicate).", schema: ReceivedWebhookSchema } },
    problems: { 401: "Missing, stale or wrong signature.", 413: "Body too large." },
  },
  {
    method: "get",
    path: "/api/hooks/receive",
    operationId: "listReceivedWebhooks",
    tag,
    summary: "The latest webhooks received at /api/hooks/receive",
    access: { action: "manage" },
    responses: { 200: { description: "Newest first.", schema: InboxSchema } },
  },
  {
    method: "post",
    path: "/api/hooks/{deployment}/{run}/{kind}",
    operationId: "receiveRemoteHook",
    tag,
    summary: "A remote deployment's webhook about a run started from this dashboard",
    description:
      "The URL (with its per-run secret `t`) is handed to the deployment at kickoff; its step, task and crew webhooks are stored into the run's event log.",
    access: { public: "the per-run secret in the URL's `t` is the proof" },
    parameters: [
      {
        name: "t",
        in: "query",
        required: true,
        description: "The per-run secret.",
        schema: { type: "string" },
      },
    ],
    body: { schema: { type: "object" }, description: "CrewAI's webhook body." },
    responses: { 200: { description: "Stored.", schema: RemoteHookResultSchema } },
    problems: {
      400: "Malformed JSON, or a body that cannot be stored.",
      401: "The secret is wrong for this run.",
      404: "No such deployment, run or event kind.",
      413: "Body too large.",
    },
  },
];
