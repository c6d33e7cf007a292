import { z } from "zod";
import { DeliveriesPageSchema, TokenRowSchema, UserRowSchema } from "@/lib/api/schemas";
import { NoContent, request } from "./request";

// Settings: API tokens, people, webhook deliveries and the webhook signing secret.
const CreatedTokenSchema = z.object({ id: z.string(), token: z.string() });

export const settingsApi = {
  tokens: () => request(z.object({ tokens: z.array(TokenRowSchema) }), "GET", "/api/tokens"),
  createToken: (kind: "org" | "user", label?: string) =>
    request(CreatedTokenSchema.passthrough(), "POST", "/api/tokens", { kind, label }),
  revokeToken: (id: string) => request(NoContent, "DELETE", `/api/tokens/${id}`),
  users: () => request(z.object({ users: z.array(UserRowSchema) }), "GET", "/api/users"),
  createUser: (u: { email: string; name?: string; password: string; role: string }) =>
    request(UserRowSchema, "POST", "/api/users", u),
  setRole: (id: string, role: string) =>
    request(UserRowSchema, "PATCH", `/api/users/${id}`, { role }),
  /** Disabling ends the person's sessions and revokes their tokens; enabling gives neither back. */
  setDisabled: (id: string, disabled: boolean) =>
    request(UserRowSchema, "PATCH", `/api/users/${id}`, { disabled }),
  /** Sets a new password and ends the person's sessions. */
  resetPassword: (id: string, password: string) =>
    request(UserRowSchema, "PATCH", `/api/users/${id}`, { password }),
  removeUser: (id: string) => request(NoContent, "DELETE", `/api/users/${id}`),
  /** One page of deliveries, newest first; pass the previous page's `next_before` to go on. */
  deliveries: ({
    status,
    before,
    limit = 25,
  }: {
    status?: string;
    before?: number;
    limit?: number;
  }) => {
    const q = new URLSearchParams({ limit: String(limit) });
    if (status) q.set("status", status);
    if (before) q.set("before", String(before));
    return request(DeliveriesPageSchema, "GET", `/api/webhooks/deliveries?${q}`);
  },
  redeliver: (id: string) =>
    request(
      z.object({ id: z.string(), status: z.string() }),
      "POST",
      `/api/webhooks/deliveries/${id}/redeliver`,
    ),
  webhookSecret: () =>
    request(z.object({ secret: z.string() }), "GET", "/api/settings/webhook-secret"),
};
