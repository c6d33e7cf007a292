import { z } from "zod";
import { tokenLifeFields } from "./fields";

// The tracker actions agent runtimes call (CrewAI's platform-tools transport), and their settings.

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

export const IntegrationTokenRowSchema = z
  .object({
    id: z.string(),
    prefix: z.string(),
    label: z.string().nullable(),
    access: z.enum(["read", "write"]),
    ...tokenLifeFields,
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

export const IntegrationTokensListSchema = z
  .object({ tokens: z.array(IntegrationTokenRowSchema) })
  .meta({ id: "IntegrationTokenList" });

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
export type TrackerTestRequest = z.infer<typeof TrackerTestRequestSchema>;
