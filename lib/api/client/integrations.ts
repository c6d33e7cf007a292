import { request, schema } from "./request";

// Integrations: tokens for the tracker's MCP/API, which tracker agents use, and Linear OAuth.
export const integrationApi = {
  tokens: () => request(schema("IntegrationTokensListSchema"), "GET", "/api/integrations/tokens"),
  create: (access: "read" | "write", label?: string) =>
    request(schema("CreatedTokenSchema"), "POST", "/api/integrations/tokens", {
      access,
      label,
    }),
  revoke: (id: string) =>
    request(schema("NoContentSchema"), "DELETE", `/api/integrations/tokens/${id}`),
};

export const trackerSettingsApi = {
  get: () => request(schema("TrackerSettingsViewSchema"), "GET", "/api/integrations/settings"),
  save: (backend: "embedded" | "linear", linearKey?: string) =>
    request(schema("TrackerSettingsViewSchema"), "PUT", "/api/integrations/settings", {
      backend,
      linearKey,
    }),
  /** Tests the backend chosen on screen; a blank key tests the saved one. */
  test: (choice?: { backend: "embedded" | "linear"; linearKey?: string }) =>
    request(schema("ConnectionTestSchema"), "POST", "/api/integrations/test", choice),
};

export const linearOAuthApi = {
  get: () => request(schema("LinearOAuthViewSchema"), "GET", "/api/integrations/linear"),
  saveApp: (body: { client_id: string; client_secret: string }) =>
    request(schema("LinearOAuthViewSchema"), "PUT", "/api/integrations/linear", body),
  disconnect: () =>
    request(schema("LinearOAuthViewSchema"), "POST", "/api/integrations/linear/disconnect"),
};
