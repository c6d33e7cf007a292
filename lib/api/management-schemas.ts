import { z } from "zod";

// Request and response shapes of the management API (tokens, integrations, webhook inboxes) that
// had none of their own: the routes validate with them and the OpenAPI document names them.

// POST /api/tokens: the dashboard creates tokens for the person signed in.
export const TokenRequestSchema = z
  .object({
    kind: z.enum(["org", "user"]),
    label: z.string().trim().max(200).optional(),
  })
  .meta({ id: "TokenRequest" });

// POST /api/integrations/tokens
export const IntegrationTokenRequestSchema = z
  .object({
    access: z.enum(["read", "write"]).default("write"),
    label: z.string().trim().max(200).optional(),
  })
  .meta({ id: "IntegrationTokenRequest" });

// The tracker actions, in the shape of CrewAI's platform-tools transport.
export const ActionsQuerySchema = z.object({
  apps: z
    .string()
    .max(1000)
    .optional()
    .describe("Comma-separated apps: `tracker` (or `linear`) for every action, `tracker/<action>`"),
});

export const ActionsListSchema = z
  .object({
    actions: z.record(
      z.string().describe("The app as asked for"),
      z.array(
        z.object({
          name: z.string(),
          description: z.string(),
          parameters: z
            .record(z.string(), z.unknown())
            .describe("The action's parameters as JSON Schema"),
        }),
      ),
    ),
  })
  .meta({ id: "ActionsList" });

export const ActionRequestSchema = z
  .object({
    integration: z
      .unknown()
      .describe("The action's parameters (see its `parameters` in GET /api/integrations/actions)"),
  })
  .meta({ id: "ActionRequest" });

export const ActionResultSchema = z
  .record(z.string(), z.unknown())
  .describe("What the action returns: the issue, project or list it names")
  .meta({ id: "ActionResult" });

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

export const RevokedSchema = z
  .object({ revoked: z.number().int().describe("How many tokens were revoked (0: none matched)") })
  .meta({ id: "Revoked" });

export const HealthzSchema = z.object({ status: z.literal("ok") }).meta({ id: "Healthz" });
