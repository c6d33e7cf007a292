import { request, schema } from "./request";

// Settings: API tokens, people, webhook deliveries and the webhook signing secret.
export const settingsApi = {
  tokens: () => request(schema("TokensListSchema"), "GET", "/api/tokens"),
  createToken: (kind: "org" | "user", label?: string) =>
    request(schema("CreatedTokenSchema"), "POST", "/api/tokens", { kind, label }),
  revokeToken: (id: string) => request(schema("NoContentSchema"), "DELETE", `/api/tokens/${id}`),
  users: () => request(schema("UsersListSchema"), "GET", "/api/users"),
  createUser: (u: { email: string; name?: string; password: string; role: string }) =>
    request(schema("UserRowSchema"), "POST", "/api/users", u),
  setRole: (id: string, role: string) =>
    request(schema("UserRowSchema"), "PATCH", `/api/users/${id}`, { role }),
  setTeams: (id: string, teams: string[]) =>
    request(schema("UserRowSchema"), "PATCH", `/api/users/${id}`, { teams }),
  /** Disabling ends the person's sessions and revokes their tokens; enabling gives neither back. */
  setDisabled: (id: string, disabled: boolean) =>
    request(schema("UserRowSchema"), "PATCH", `/api/users/${id}`, { disabled }),
  /** Sets a new password and ends the person's sessions. */
  resetPassword: (id: string, password: string) =>
    request(schema("UserRowSchema"), "PATCH", `/api/users/${id}`, { password }),
  /** Clears the person's sign-in locks on the instance that answers. */
  unlockUser: (id: string) =>
    request(schema("UnlockedUserSchema"), "POST", `/api/users/${id}/unlock`),
  removeUser: (id: string) => request(schema("NoContentSchema"), "DELETE", `/api/users/${id}`),
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
    return request(schema("DeliveriesPageSchema"), "GET", `/api/webhooks/deliveries?${q}`);
  },
  redeliver: (id: string) =>
    request(schema("RedeliverResponseSchema"), "POST", `/api/webhooks/deliveries/${id}/redeliver`),
  webhookSecret: () =>
    request(schema("WebhookSecretSchema"), "GET", "/api/settings/webhook-secret"),
};
