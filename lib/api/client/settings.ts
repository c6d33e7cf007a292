import { contract, noContent, request } from "./request";

const adminSchemas = contract(() => import("@/lib/contract/admin"));
const webhookSchemas = contract(() => import("@/lib/contract/webhooks"));

// Settings: API tokens, people, webhook deliveries and the webhook signing secret.
export const settingsApi = {
  tokens: () => request(adminSchemas("TokensListSchema"), "GET", "/api/tokens"),
  createToken: (kind: "org" | "user", label?: string) =>
    request(adminSchemas("CreatedTokenSchema"), "POST", "/api/tokens", { kind, label }),
  revokeToken: (id: string) => request(noContent, "DELETE", `/api/tokens/${id}`),
  users: () => request(adminSchemas("UsersListSchema"), "GET", "/api/users"),
  createUser: (u: { email: string; name?: string; password: string; role: string }) =>
    request(adminSchemas("UserRowSchema"), "POST", "/api/users", u),
  setRole: (id: string, role: string) =>
    request(adminSchemas("UserRowSchema"), "PATCH", `/api/users/${id}`, { role }),
  setTeams: (id: string, teams: string[]) =>
    request(adminSchemas("UserRowSchema"), "PATCH", `/api/users/${id}`, { teams }),
  /** Disabling ends the person's sessions and revokes their tokens; enabling gives neither back. */
  setDisabled: (id: string, disabled: boolean) =>
    request(adminSchemas("UserRowSchema"), "PATCH", `/api/users/${id}`, { disabled }),
  /** Sets a new password and ends the person's sessions. */
  resetPassword: (id: string, password: string) =>
    request(adminSchemas("UserRowSchema"), "PATCH", `/api/users/${id}`, { password }),
  /** Clears the person's sign-in locks on the instance that answers. */
  unlockUser: (id: string) =>
    request(adminSchemas("UnlockedUserSchema"), "POST", `/api/users/${id}/unlock`),
  removeUser: (id: string) => request(noContent, "DELETE", `/api/users/${id}`),
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
    return request(webhookSchemas("DeliveriesPageSchema"), "GET", `/api/webhooks/deliveries?${q}`);
  },
  redeliver: (id: string) =>
    request(
      webhookSchemas("RedeliverResponseSchema"),
      "POST",
      `/api/webhooks/deliveries/${id}/redeliver`,
    ),
  webhookSecret: () =>
    request(webhookSchemas("WebhookSecretSchema"), "GET", "/api/settings/webhook-secret"),
};
