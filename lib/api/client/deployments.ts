import type { z } from "zod";
import type { ConnectionCheckSchema } from "@/lib/api/schemas";
import { request, schema } from "./request";

// Remote deployments (administrators): tokens and webhook secrets are write-only.
const path = (slug: string) => `/api/deployments/${encodeURIComponent(slug)}`;

export const deploymentsApi = {
  list: () => request(schema("DeploymentListSchema"), "GET", "/api/deployments"),
  create: (body: { name: string; base_url: string; token: string; webhook_secret?: string }) =>
    request(schema("DeploymentViewSchema"), "POST", "/api/deployments", body),
  /** A blank token or webhook secret keeps the saved one. */
  update: (
    slug: string,
    body: { name?: string; base_url?: string; token?: string; webhook_secret?: string },
  ) => request(schema("DeploymentViewSchema"), "PATCH", path(slug), body),
  remove: (slug: string) => request(schema("NoContentSchema"), "DELETE", path(slug)),
  test: (slug: string) => request(schema("ConnectionCheckSchema"), "POST", `${path(slug)}/test`),
};

export type ConnectionCheck = z.infer<typeof ConnectionCheckSchema>;
