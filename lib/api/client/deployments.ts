import {
  ConnectionCheckSchema,
  DeploymentListSchema,
  DeploymentViewSchema,
} from "@/lib/api/schemas";
import { NoContent, request } from "./request";

// Remote deployments (administrators): tokens and webhook secrets are write-only.
const path = (slug: string) => `/api/deployments/${encodeURIComponent(slug)}`;

export const deploymentsApi = {
  list: () => request(DeploymentListSchema, "GET", "/api/deployments"),
  create: (body: { name: string; base_url: string; token: string; webhook_secret?: string }) =>
    request(DeploymentViewSchema, "POST", "/api/deployments", body),
  /** A blank token or webhook secret keeps the saved one. */
  update: (
    slug: string,
    body: { name?: string; base_url?: string; token?: string; webhook_secret?: string },
  ) => request(DeploymentViewSchema, "PATCH", path(slug), body),
  remove: (slug: string) => request(NoContent, "DELETE", path(slug)),
  test: (slug: string) => request(ConnectionCheckSchema, "POST", `${path(slug)}/test`),
};

export type ConnectionCheck = import("zod").infer<typeof ConnectionCheckSchema>;
