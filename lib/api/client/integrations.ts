import { contract, noContent, request } from "./request";

const integrationSchemas = contract(() => import("@/lib/contract/integrations"));
const adminSchemas = contract(() => import("@/lib/contract/admin"));

// Integrations: tokens for the tracker's MCP/API, which tracker agents use, and Linear OAuth.
export const integrationApi = {
  tokens: () =>
    request(integrationSchemas("IntegrationTokensListSchema"), "GET", "/api/integrations/tokens"),
  create: (access: "read" | "write", label?: string) =>
    request(adminSchemas("CreatedTokenSchema"), "POST", "/api/integrations/tokens", {
      access,
      label,
    }),
  revoke: (id: string) => request(noContent, "DELETE", `/api/integrations/tokens/${id}`),
};

export const trackerSettingsApi = {
  get: () =>
    request(integrationSchemas("TrackerSettingsViewSchema"), "GET", "/api/integrations/settings"),
  save: (backend: "embedded" | "linear", linearKey?: string) =>
    request(integrationSchemas("TrackerSettingsViewSchema"), "PUT", "/api/integrations/settings", {
      backend,
      linearKey,
    }),
  /** Tests the backend chosen on screen; a blank key tests the saved one. */
  test: (choice?: { backend: "embedded" | "linear"; linearKey?: string }) =>
    request(integrationSchemas("ConnectionTestSchema"), "POST", "/api/integrations/test", choice),
};

export const linearOAuthApi = {
  get: () =>
    request(integrationSchemas("LinearOAuthViewSchema"), "GET", "/api/integrations/linear"),
  saveApp: (body: { client_id: string; client_secret: string }) =>
    request(integrationSchemas("LinearOAuthViewSchema"), "PUT", "/api/integrations/linear", body),
  disconnect: () =>
    request(
      integrationSchemas("LinearOAuthViewSchema"),
      "POST",
      "/api/integrations/linear/disconnect",
    ),
};
