import { z } from "zod";
import {
  DeliveriesPageSchema,
  InboxSchema,
  ReceivedWebhookSchema,
  RedeliverResponseSchema,
  RemoteHookResultSchema,
  WebhookSecretSchema,
} from "@/lib/contract/webhooks";
import { DeliveriesQuerySchema } from "@/lib/webhooks/deliveries";
import { endpoint } from "./endpoint";
import { admin, manage } from "./shared";

// The outbox of webhook deliveries, and the receivers this server offers to others.
const NO_RECEIVER = { error: "No such webhook receiver." };
const tag = "Webhooks";

export const listDeliveries = endpoint({
  method: "GET",
  path: "/api/webhooks/deliveries",
  operationId: "listDeliveries",
  tag,
  summary: "The delivery log: every webhook delivery and each of its attempts",
  description:
    "Newest first; URLs come back with their secrets redacted. Page with `before` from `next_before`.",
  access: manage,
  query: DeliveriesQuerySchema,
  responses: { 200: { description: "One page.", schema: DeliveriesPageSchema } },
  problems: { 400: "Invalid query parameters." },
});

export const redeliver = endpoint({
  method: "POST",
  path: "/api/webhooks/deliveries/{id}/redeliver",
  operationId: "redeliver",
  tag,
  summary: "Try a delivery again now",
  access: manage,
  params: { id: z.string().describe("The delivery's id.") },
  responses: { 200: { description: "Queued again.", schema: RedeliverResponseSchema } },
  problems: { 404: "No such delivery.", 409: "The delivery is being attempted right now." },
});

export const webhookSecret = endpoint({
  method: "GET",
  path: "/api/settings/webhook-secret",
  operationId: "webhookSecret",
  tag,
  summary: "The signing secret (`whsec_…`), for setting up a receiver",
  access: admin,
  responses: { 200: { description: "OK", schema: WebhookSecretSchema } },
});

export const receiveWebhook = endpoint({
  method: "POST",
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
  // Read by the handler: the signature covers the bytes as sent.
  ownBody: { schema: { type: "object" }, description: "Any JSON object." },
  responses: { 200: { description: "Stored (or a duplicate).", schema: ReceivedWebhookSchema } },
  problems: { 401: "Missing, stale or wrong signature.", 413: "Body too large." },
});

export const listReceivedWebhooks = endpoint({
  method: "GET",
  path: "/api/hooks/receive",
  operationId: "listReceivedWebhooks",
  tag,
  summary: "The latest webhooks received at /api/hooks/receive",
  access: manage,
  responses: { 200: { description: "Newest first.", schema: InboxSchema } },
});

export const receiveRemoteHook = endpoint({
  method: "POST",
  path: "/api/hooks/{deployment}/{run}/{kind}",
  operationId: "receiveRemoteHook",
  tag,
  summary: "A remote deployment's webhook about a run started from this dashboard",
  description:
    "The URL (with its per-run secret `t`) is handed to the deployment at kickoff; its step, task and crew webhooks are stored into the run's event log.",
  access: { public: "the per-run secret in the URL's `t` is the proof" },
  // One refusal for a run or an event kind that is not there, as the receiver's own.
  params: {
    run: z.uuid(NO_RECEIVER).describe("The run's `kickoff_id` on this server."),
    kind: z.enum(["task", "step", "crew"], NO_RECEIVER).describe("The event."),
  },
  parameters: [
    {
      name: "t",
      in: "query",
      required: true,
      description: "The per-run secret.",
      schema: { type: "string" },
    },
  ],
  // Read by the handler after the secret (a body that is not JSON is kept as text).
  ownBody: { schema: { type: "object" }, description: "CrewAI's webhook body." },
  responses: { 200: { description: "Stored.", schema: RemoteHookResultSchema } },
  problems: {
    400: "Malformed JSON, or a body that cannot be stored.",
    401: "The secret is wrong for this run.",
    404: "No such deployment, run or event kind.",
    413: "Body too large.",
  },
});
