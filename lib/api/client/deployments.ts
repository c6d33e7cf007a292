import type { z } from "zod";
import type { ConnectionCheckSchema } from "@/lib/contract/admin";
import { contract, noContent, request } from "./request";

const adminSchemas = contract(() => import("@/lib/contract/admin"));

// Remote deployments (administrators): tokens and webhook secrets are write-only.
const path = (slug: string) => `/api/deployments/${encodeURIComponent(slug)}`;

export const deploymentsApi = {
  list: () => request(adminSchemas("DeploymentListSchema"), "GET", "/api/deployments"),
  create: (body: { name: string; base_url: string; token: string; webhook_secret?: string }) =>
    request(adminSchemas("DeploymentViewSchema"), "POST", "/api/deployments", body),
  /** A blank token or webhook secret keeps the saved one. */
  update: (
    slug: string,
    body: { name?: string; base_url?: string; token?: string; webhook_secret?: string },
  ) => request(adminSchemas("DeploymentViewSchema"), "PATCH", path(slug), body),
  remove: (slug: string) => request(noContent, "DELETE", path(slug)),
  test: (slug: string) =>
    request(adminSchemas("ConnectionCheckSchema"), "POST", `${path(slug)}/test`),
};

export type ConnectionCheck = z.infer<typeof ConnectionCheckSchema>;
