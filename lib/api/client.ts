import type { listExecutions } from "@/lib/runs/list-executions";
import type { ExecutionEvent, ResumeRequest, StatusResponse } from "./schemas";

// The typed client the dashboard uses: the same endpoints and rules as any script (the session
// cookie stands in for the bearer token).
export type Problem = {
  status: number;
  title: string;
  detail: string;
  missing_inputs?: string[];
  errors?: { path: string; message: string }[];
};

export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail);
  }
}

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
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
        ? data
        : {
            status: res.status,
            title: res.statusText,
            detail: `The server answered ${res.status}.`,
          },
    );
  }
  return data as T;
}

export type RunsPage = Awaited<ReturnType<typeof listExecutions>>;

export type RunStats = {
  awaiting_review: number;
  running: number;
  days: {
    day: string;
    completed: number;
    error: number;
    cancelled: number;
    other: number;
    avg_seconds: number | null;
    max_seconds: number | null;
  }[];
};

export const runsApi = {
  list: (filters: Record<string, string>) =>
    request<RunsPage>("GET", `/api/runs?${new URLSearchParams(filters)}`),
  stats: () => request<RunStats>("GET", "/api/runs/stats"),
};

export function crewApi(crew: string) {
  const base = `/api/crews/${encodeURIComponent(crew)}`;
  return {
    inputs: () => request<{ inputs: string[] }>("GET", `${base}/inputs`),
    kickoff: (inputs: Record<string, string>) =>
      request<{ kickoff_id: string }>("POST", `${base}/kickoff`, { inputs }),
    status: (id: string) => request<StatusResponse>("GET", `${base}/status/${id}`),
    events: (id: string, after = 0) =>
      request<{ events: ExecutionEvent[]; last_seq: number; has_more: boolean }>(
        "GET",
        `${base}/executions/${id}/events?after=${after}`,
      ),
    streamUrl: (id: string) => `${base}/executions/${id}/stream`,
    stop: (id: string) => request<{ status: "stopped" }>("POST", `${base}/stop/${id}`),
    resume: (body: ResumeRequest) =>
      request<{ status: string; message: string }>("POST", `${base}/resume`, body),
  };
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
  tokens: () => request<{ tokens: TokenRow[] }>("GET", "/api/tokens"),
  createToken: (kind: "org" | "user", label?: string) =>
    request<{ id: string; token: string }>("POST", "/api/tokens", { kind, label }),
  revokeToken: (id: string) => request<void>("DELETE", `/api/tokens/${id}`),
  users: () => request<{ users: UserRow[] }>("GET", "/api/users"),
  createUser: (u: { email: string; name?: string; password: string; role: string }) =>
    request<UserRow>("POST", "/api/users", u),
  setRole: (id: string, role: string) => request<UserRow>("PATCH", `/api/users/${id}`, { role }),
  /** Disabling ends the person's sessions and revokes their tokens; enabling gives neither back. */
  setDisabled: (id: string, disabled: boolean) =>
    request<UserRow>("PATCH", `/api/users/${id}`, { disabled }),
  /** Sets a new password and ends the person's sessions. */
  resetPassword: (id: string, password: string) =>
    request<UserRow>("PATCH", `/api/users/${id}`, { password }),
  removeUser: (id: string) => request<void>("DELETE", `/api/users/${id}`),
  deliveries: (status?: string) =>
    request<{ deliveries: DeliveryRow[] }>(
      "GET",
      `/api/webhooks/deliveries?limit=50${status ? `&status=${status}` : ""}`,
    ),
  redeliver: (id: string) =>
    request<{ id: string; status: string }>("POST", `/api/webhooks/deliveries/${id}/redeliver`),
  webhookSecret: () => request<{ secret: string }>("GET", "/api/settings/webhook-secret"),
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
  tokens: () => request<{ tokens: IntegrationTokenRow[] }>("GET", "/api/integrations/tokens"),
  create: (access: "read" | "write", label?: string) =>
    request<{ id: string; token: string }>("POST", "/api/integrations/tokens", { access, label }),
  revoke: (id: string) => request<void>("DELETE", `/api/integrations/tokens/${id}`),
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
  get: () => request<TrackerSettings>("GET", "/api/integrations/settings"),
  save: (backend: "embedded" | "linear", linearKey?: string) =>
    request<TrackerSettings>("PUT", "/api/integrations/settings", { backend, linearKey }),
  test: () => request<ConnectionTest>("POST", "/api/integrations/test"),
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
  list: () => request<{ deployments: DeploymentView[] }>("GET", "/api/deployments"),
  create: (body: { name: string; base_url: string; token: string; webhook_secret?: string }) =>
    request<DeploymentView>("POST", "/api/deployments", body),
  remove: (slug: string) => request<void>("DELETE", `/api/deployments/${encodeURIComponent(slug)}`),
  test: (slug: string) =>
    request<ConnectionCheck>("POST", `/api/deployments/${encodeURIComponent(slug)}/test`),
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
  get: () => request<LinearOAuthView>("GET", "/api/integrations/linear"),
  saveApp: (body: { client_id: string; client_secret: string }) =>
    request<LinearOAuthView>("PUT", "/api/integrations/linear", body),
  disconnect: () => request<LinearOAuthView>("POST", "/api/integrations/linear/disconnect"),
};
