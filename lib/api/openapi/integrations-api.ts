import {
  ActionRequestSchema,
  ActionResultSchema,
  ActionsListSchema,
  ActionsQuerySchema,
  IntegrationTokenRequestSchema,
} from "@/lib/api/management-schemas";
import {
  ConnectionTestSchema,
  CreatedTokenSchema,
  IntegrationTokensListSchema,
  LinearOAuthViewSchema,
  TrackerSettingsViewSchema,
  TrackerTestRequestSchema,
} from "@/lib/api/schemas";
import { OAuthAppSchema } from "@/lib/tracker/linear/oauth";
import { TrackerSettingsSchema } from "@/lib/tracker/settings";
import type { OperationSpec } from "./operations";

// The issue-tracker actions agent runtimes call (CrewAI's platform-tools transport), and their
// settings. Problems of the actions also carry CrewAI's `error: {code, message}`.
const tag = "Integrations";
const invalid = {
  400: "Malformed JSON or not an object.",
  413: "Body too large.",
  422: "Invalid fields (`errors`).",
};

export const integrationsApi: OperationSpec[] = [
  {
    method: "get",
    path: "/api/integrations/actions",
    operationId: "listActions",
    tag,
    summary: "The actions an agent runtime may call, with their parameters as JSON Schema",
    access: { integrationToken: true },
    query: ActionsQuerySchema,
    responses: { 200: { description: "Per app asked for.", schema: ActionsListSchema } },
    problems: { 404: "An unknown app (`error.code: unknown_action`)." },
  },
  {
    method: "post",
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
  },
  {
    method: "get",
    path: "/api/integrations/settings",
    operationId: "trackerSettings",
    tag,
    summary: "Which issue tracker agents use (the Linear key is never sent back)",
    access: { action: "manage" },
    responses: { 200: { description: "OK", schema: TrackerSettingsViewSchema } },
  },
  {
    method: "put",
    path: "/api/integrations/settings",
    operationId: "saveTrackerSettings",
    tag,
    summary: "Choose the issue tracker (and save a Linear API key, sealed at rest)",
    access: { action: "manage" },
    body: { schema: TrackerSettingsSchema },
    responses: { 200: { description: "Saved.", schema: TrackerSettingsViewSchema } },
    problems: invalid,
  },
  {
    method: "post",
    path: "/api/integrations/test",
    operationId: "testTracker",
    tag,
    summary: "Check that a tracker answers (lists its teams)",
    description:
      "Without a body: the saved tracker. With one: the tracker chosen on screen (a blank `linearKey` uses the saved key). A tracker that fails is `ok: false` with its error, not a problem.",
    access: { action: "manage" },
    body: { schema: TrackerTestRequestSchema, required: false },
    responses: { 200: { description: "The outcome.", schema: ConnectionTestSchema } },
    problems: invalid,
  },
  {
    method: "get",
    path: "/api/integrations/tokens",
    operationId: "listIntegrationTokens",
    tag,
    summary: "Integration tokens for agent runtimes",
    access: { action: "admin" },
    responses: { 200: { description: "OK", schema: IntegrationTokensListSchema } },
  },
  {
    method: "post",
    path: "/api/integrations/tokens",
    operationId: "createIntegrationToken",
    tag,
    summary: "Create an integration token (shown once)",
    access: { action: "admin" },
    body: { schema: IntegrationTokenRequestSchema },
    responses: { 201: { description: "Created.", schema: CreatedTokenSchema } },
    problems: invalid,
  },
  {
    method: "delete",
    path: "/api/integrations/tokens/{id}",
    operationId: "revokeIntegrationToken",
    tag,
    summary: "Revoke an integration token",
    access: { action: "admin" },
    pathParams: { id: "The integration token's id." },
    responses: { 204: { description: "Revoked." } },
    problems: { 404: "No such integration token." },
  },
  {
    method: "get",
    path: "/api/integrations/linear",
    operationId: "linearOAuth",
    tag,
    summary: "The OAuth connection to Linear (never a token)",
    access: { action: "manage" },
    responses: { 200: { description: "OK", schema: LinearOAuthViewSchema } },
  },
  {
    method: "put",
    path: "/api/integrations/linear",
    operationId: "saveLinearOAuthApp",
    tag,
    summary: "Save the Linear OAuth application's id and secret (the secret sealed at rest)",
    access: { action: "manage" },
    body: { schema: OAuthAppSchema },
    responses: { 200: { description: "Saved.", schema: LinearOAuthViewSchema } },
    problems: invalid,
  },
  {
    method: "post",
    path: "/api/integrations/linear/disconnect",
    operationId: "disconnectLinear",
    tag,
    summary: "Revoke the Linear token at Linear and forget it here",
    access: { action: "manage" },
    responses: { 200: { description: "Disconnected.", schema: LinearOAuthViewSchema } },
  },
];
