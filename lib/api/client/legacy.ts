import type { ExecutionEvent, ResumeRequest, StatusResponse } from "@/lib/api/schemas";
import type { listExecutions } from "@/lib/runs/list-executions";
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
    legacyRequest<RunsPage>("GET", `/api/runs?${new URLSearchParams(filters)}`),
  stats: () => legacyRequest<RunStats>("GET", "/api/runs/stats"),
};

export function crewApi(crew: string) {
  const base = `/api/crews/${encodeURIComponent(crew)}`;
  return {
    inputs: () => legacyRequest<{ inputs: string[] }>("GET", `${base}/inputs`),
    kickoff: (inputs: Record<string, string>) =>
      legacyRequest<{ kickoff_id: string }>("POST", `${base}/kickoff`, { inputs }),
    status: (id: string) => legacyRequest<StatusResponse>("GET", `${base}/status/${id}`),
    events: (id: string, after = 0) =>
      legacyRequest<{ events: ExecutionEvent[]; last_seq: number; has_more: boolean }>(
        "GET",
        `${base}/executions/${id}/events?after=${after}`,
      ),
    streamUrl: (id: string) => `${base}/executions/${id}/stream`,
    stop: (id: string) => legacyRequest<{ status: "stopped" }>("POST", `${base}/stop/${id}`),
    resume: (body: ResumeRequest) =>
      legacyRequest<{ status: string; message: string }>("POST", `${base}/resume`, body),
  };
}
