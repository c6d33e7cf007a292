import { ApiError } from "./request";

// The typed client the dashboard uses: the same endpoints and rules as any script (the session
// cookie stands in for the bearer token).
async function legacyRequest<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? undefined : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
    cache: "no-store",
  });
  const text = res.status === 204 ? "" : await res.text();
  const data = text ? JSON.parse(text) : undefined;
  if (!res.ok) {
    throw new ApiError(
      data?.detail
        ? { type: "about:blank", ...data }
        : {
            status: res.status,
            title: res.statusText,
            detail: `The server answered ${res.status}.`,
          },
    );
  }
  return data as T;
}

export type TokenRow = {
  id: string;
  kind: "org" | "user";
  email: string | null;
  prefix: string;
  label: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
};
export type UserRow = {
  id: string;
  email: string;
  name: string | null;
  role: string;
  has_password: boolean;
  disabled: boolean;
  created_at: string;
};
export type DeliveryRow = {
  id: string;
  execution_id: string;
  kind: string;
  url: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  attempts_log: {
    attempt: number;
    started_at: string;
    status_code: number | null;
    latency_ms: number;
    error: string | null;
  }[];
};

export const settingsApi = {
  tokens: () => legacyRequest<{ tokens: TokenRow[] }>("GET", "/api/tokens"),
  createToken: (kind: "org" | "user", label?: string) =>
    legacyRequest<{ id: string; token: string }>("POST", "/api/tokens", { kind, label }),
  revokeToken: (id: string) => legacyRequest<void>("DELETE", `/api/tokens/${id}`),
  users: () => legacyRequest<{ users: UserRow[] }>("GET", "/api/users"),
  createUser: (u: { email: string; name?: string; password: string; role: string }) =>
    legacyRequest<UserRow>("POST", "/api/users", u),
  setRole: (id: string, role: string) =>
    legacyRequest<UserRow>("PATCH", `/api/users/${id}`, { role }),
  /** Disabling ends the person's sessions and revokes their tokens; enabling gives neither back. */
  setDisabled: (id: string, disabled: boolean) =>
    legacyRequest<UserRow>("PATCH", `/api/users/${id}`, { disabled }),
  /** Sets a new password and ends the person's sessions. */
  resetPassword: (id: string, password: string) =>
    legacyRequest<UserRow>("PATCH", `/api/users/${id}`, { password }),
  removeUser: (id: string) => legacyRequest<void>("DELETE", `/api/users/${id}`),
  deliveries: (status?: string) =>
    legacyRequest<{ deliveries: DeliveryRow[] }>(
      "GET",
      `/api/webhooks/deliveries?limit=50${status ? `&status=${status}` : ""}`,
    ),
  redeliver: (id: string) =>
    legacyRequest<{ id: string; status: string }>(
      "POST",
      `/api/webhooks/deliveries/${id}/redeliver`,
    ),
  webhookSecret: () => legacyRequest<{ secret: string }>("GET", "/api/settings/webhook-secret"),
};

export type IntegrationTokenRow = {
  id: string;
  prefix: string;
  label: string | null;
  access: "read" | "write";
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
};

export const integrationApi = {
  tokens: () => legacyRequest<{ tokens: IntegrationTokenRow[] }>("GET", "/api/integrations/tokens"),
  create: (access: "read" | "write", label?: string) =>
    legacyRequest<{ id: string; token: string }>("POST", "/api/integrations/tokens", {
      access,
      label,
    }),
  revoke: (id: string) => legacyRequest<void>("DELETE", `/api/integrations/tokens/${id}`),
};

export type TrackerSettings = {
  backend: "embedded" | "linear";
  source: "environment" | "settings" | "default";
  linear_key_saved: boolean;
  linear_key_hint: string | null;
};
export type ConnectionTest = {
  ok: boolean;
  backend: string;
  teams?: string[];
  error?: { code: string; message: string };
};

export const trackerSettingsApi = {
  get: () => legacyRequest<TrackerSettings>("GET", "/api/integrations/settings"),
  save: (backend: "embedded" | "linear", linearKey?: string) =>
    legacyRequest<TrackerSettings>("PUT", "/api/integrations/settings", { backend, linearKey }),
  test: () => legacyRequest<ConnectionTest>("POST", "/api/integrations/test"),
};

export type DeploymentView = {
  id: string;
  slug: string;
  name: string;
  base_url: string;
  signs_webhooks: boolean;
  created_at: string;
};
export type ConnectionCheck =
  | { ok: true; inputs: string[]; health: string }
  | { ok: false; step: "health" | "inputs"; reason: string };

export const deploymentsApi = {
  list: () => legacyRequest<{ deployments: DeploymentView[] }>("GET", "/api/deployments"),
  create: (body: { name: string; base_url: string; token: string; webhook_secret?: string }) =>
    legacyRequest<DeploymentView>("POST", "/api/deployments", body),
  remove: (slug: string) =>
    legacyRequest<void>("DELETE", `/api/deployments/${encodeURIComponent(slug)}`),
  test: (slug: string) =>
    legacyRequest<ConnectionCheck>("POST", `/api/deployments/${encodeURIComponent(slug)}/test`),
};

export type LinearOAuthView = {
  app_configured: boolean;
  app_source: "environment" | "settings" | null;
  client_id: string | null;
  scopes_requested: string[];
  redirect_uri: string;
  connection: {
    status: "connected" | "revoked";
    workspace: string;
    connected_by: string;
    connected_at: string;
    scopes: string[];
  } | null;
};

export const linearOAuthApi = {
  get: () => legacyRequest<LinearOAuthView>("GET", "/api/integrations/linear"),
  saveApp: (body: { client_id: string; client_secret: string }) =>
    legacyRequest<LinearOAuthView>("PUT", "/api/integrations/linear", body),
  disconnect: () => legacyRequest<LinearOAuthView>("POST", "/api/integrations/linear/disconnect"),
};
