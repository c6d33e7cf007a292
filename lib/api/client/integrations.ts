import { z } from "zod";
import {
  ConnectionTestSchema,
  IntegrationTokenRowSchema,
  LinearOAuthViewSchema,
  TrackerSettingsViewSchema,
} from "@/lib/api/schemas";
import { NoContent, request } from "./request";

// Integrations: tokens for the tracker's MCP/API, which tracker agents use, and Linear OAuth.
export const integrationApi = {
  tokens: () =>
    request(
      z.object({ tokens: z.array(IntegrationTokenRowSchema) }),
      "GET",
      "/api/integrations/tokens",
    ),
  create: (access: "read" | "write", label?: string) =>
    request(
      z.object({ id: z.string(), token: z.string() }).passthrough(),
      "POST",
      "/api/integrations/tokens",
      {
        access,
        label,
      },
    ),
  revoke: (id: string) => request(NoContent, "DELETE", `/api/integrations/tokens/${id}`),
};

export const trackerSettingsApi = {
  get: () => request(TrackerSettingsViewSchema, "GET", "/api/integrations/settings"),
  save: (backend: "embedded" | "linear", linearKey?: string) =>
    request(TrackerSettingsViewSchema, "PUT", "/api/integrations/settings", { backend, linearKey }),
  /** Tests the backend chosen on screen; a blank key tests the saved one. */
  test: (choice?: { backend: "embedded" | "linear"; linearKey?: string }) =>
    request(ConnectionTestSchema, "POST", "/api/integrations/test", choice),
};

export const linearOAuthApi = {
  get: () => request(LinearOAuthViewSchema, "GET", "/api/integrations/linear"),
  saveApp: (body: { client_id: string; client_secret: string }) =>
    request(LinearOAuthViewSchema, "PUT", "/api/integrations/linear", body),
  disconnect: () => request(LinearOAuthViewSchema, "POST", "/api/integrations/linear/disconnect"),
};
