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
  const text = await res.text();
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
