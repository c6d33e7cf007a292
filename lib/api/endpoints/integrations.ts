import { CreatedTokenSchema } from "@/lib/contract/admin";
import {
  ActionRequestSchema,
  ActionResultSchema,
  ActionsListSchema,
  ActionsQuerySchema,
  ConnectionTestSchema,
  IntegrationTokenRequestSchema,
  IntegrationTokensListSchema,
  LinearOAuthViewSchema,
  TrackerSettingsViewSchema,
  TrackerTestRequestSchema,
} from "@/lib/contract/integrations";
import { OAuthAppSchema } from "@/lib/tracker/linear/oauth";
import { TrackerSettingsSchema } from "@/lib/tracker/settings";
import { endpoint } from "./endpoint";
import { uuidId } from "./path-params";
import { admin, INVALID_BODY, manage, setting } from "./shared";

// The issue-tracker actions agent runtimes call (CrewAI's platform-tools transport), and their
// settings. Problems of the actions also carry CrewAI's `error: {code, message}`.
const tag = "Integrations";

export const listActions = endpoint({
  method: "GET",
  path: "/api/integrations/actions",
  operationId: "listActions",
  tag,
  summary: "The actions an agent runtime may call, with their parameters as JSON Schema",
  access: { integrationToken: true },
  query: ActionsQuerySchema,
  responses: { 200: { description: "Per app asked for.", schema: ActionsListSchema } },
  problems: { 404: "An unknown app (`error.code: unknown_action`)." },
});

export const executeAction = endpoint({
  method: "POST",
  path: "/api/integrations/actions/{name}/execute",
  operationId: "executeAction",
  tag,
  summary: "Run one action with its parameters",
  description:
    "A read-only integration token may run only the read actions. The action checks its own parameters; its failures come back as problems whose `error.code` names them (the seed's failure codes).",
  access: { integrationToken: true },
  body: { schema: ActionRequestSchema },
  responses: { 200: { description: "The action's result.", schema: ActionResultSchema } },
  problems: {
    400: "Malformed JSON, or invalid parameters (`validation_error`, `invalid_id`, …).",
    403: "A read-only token, or the tracker refused (`permission_denied`).",
    404: "Unknown action, or the issue or project it names does not exist.",
    413: "Body over 1 MiB.",
    422: "Well-formed parameters that cannot be applied (`invalid_state`, `unknown_label`, …).",
    429: "Rate limited, here or by the tracker (`rate_limited`).",
  },
});

const tracker = setting("/api/integrations/settings", {
  tag,
  access: manage,
  view: TrackerSettingsViewSchema,
});

export const trackerSettings = tracker.get({
  operationId: "trackerSettings",
  summary: "Which issue tracker agents use (the Linear key is never sent back)",
});

export const saveTrackerSettings = tracker.save({
  operationId: "saveTrackerSettings",
  summary: "Choose the issue tracker (and save a Linear API key, sealed at rest)",
  body: { schema: TrackerSettingsSchema, limit: 8 * 1024, invalid: 422 },
});

export const testTracker = endpoint({
  method: "POST",
  path: "/api/integrations/test",
  operationId: "testTracker",
  tag,
  summary: "Check that a tracker answers (lists its teams)",
  description:
    "Without a body: the saved tracker. With one: the tracker chosen on screen (a blank `linearKey` uses the saved key). A tracker that fails is `ok: false` with its error, not a problem.",
  access: manage,
  // No body (or an empty one) keeps the old meaning: test the saved backend.
  body: { schema: TrackerTestRequestSchema, optional: true, limit: 8 * 1024, invalid: 422 },
  responses: { 200: { description: "The outcome.", schema: ConnectionTestSchema } },
  problems: INVALID_BODY,
});

export const listIntegrationTokens = endpoint({
  method: "GET",
  path: "/api/integrations/tokens",
  operationId: "listIntegrationTokens",
  tag,
  summary: "Integration tokens for agent runtimes",
  access: admin,
  responses: { 200: { description: "OK", schema: IntegrationTokensListSchema } },
});

export const createIntegrationToken = endpoint({
  method: "POST",
  path: "/api/integrations/tokens",
  operationId: "createIntegrationToken",
  tag,
  summary: "Create an integration token (shown once)",
  access: admin,
  body: { schema: IntegrationTokenRequestSchema, limit: 4 * 1024, invalid: 422 },
  responses: { 201: { description: "Created.", schema: CreatedTokenSchema } },
  problems: INVALID_BODY,
});

export const revokeIntegrationToken = endpoint({
  method: "DELETE",
  path: "/api/integrations/tokens/{id}",
  operationId: "revokeIntegrationToken",
  tag,
  summary: "Revoke an integration token",
  access: admin,
  params: { id: uuidId("integration token") },
  responses: { 204: { description: "Revoked." } },
  problems: { 404: "No such integration token." },
});

const linear = setting("/api/integrations/linear", {
  tag,
  access: manage,
  view: LinearOAuthViewSchema,
});

export const linearOAuth = linear.get({
  operationId: "linearOAuth",
  summary: "The OAuth connection to Linear (never a token)",
});

export const saveLinearOAuthApp = linear.save({
  operationId: "saveLinearOAuthApp",
  summary: "Save the Linear OAuth application's id and secret (the secret sealed at rest)",
  body: { schema: OAuthAppSchema, limit: 8 * 1024, invalid: 422 },
});

export const disconnectLinear = endpoint({
  method: "POST",
  path: "/api/integrations/linear/disconnect",
  operationId: "disconnectLinear",
  tag,
  summary: "Revoke the Linear token at Linear and forget it here",
  access: manage,
  responses: { 200: { description: "Disconnected.", schema: LinearOAuthViewSchema } },
});

export const connectLinear = endpoint({
  method: "GET",
  path: "/api/integrations/linear/connect",
  operationId: "connectLinear",
  tag,
  summary: "Connect Linear: off to Linear's consent page",
  browserOnly: "Connect Linear: a redirect to Linear's consent page",
  access: admin,
  responses: {
    302: { description: "To Linear's consent page, with a state bound to the session." },
    303: {
      description:
        "Back to the settings page with `linear_error` (not signed in, or no app saved).",
    },
  },
});
