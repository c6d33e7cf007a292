import type { ResumeRequest, ReviewAction } from "@/lib/api/schemas";
import { request, schema } from "./request";

// One crew's endpoints (the CrewAI-compatible API), as the dashboard calls them.
export function crewApi(crew: string) {
  const base = `/api/crews/${encodeURIComponent(crew)}`;
  return {
    inputs: () => request(schema("InputsResponseSchema"), "GET", `${base}/inputs`),
    kickoff: (inputs: Record<string, unknown>, meta?: Record<string, unknown>) =>
      request(schema("KickoffResponseSchema"), "POST", `${base}/kickoff`, { inputs, meta }),
    status: (id: string) => request(schema("StatusResponseSchema"), "GET", `${base}/status/${id}`),
    events: (id: string, after = 0) =>
      request(
        schema("EventsResponseSchema"),
        "GET",
        `${base}/executions/${id}/events?after=${after}`,
      ),
    streamUrl: (id: string) => `${base}/executions/${id}/stream`,
    stop: (id: string) => request(schema("StopResponseSchema"), "POST", `${base}/stop/${id}`),
    resume: (body: ResumeRequest) =>
      request(schema("ResumeResponseSchema"), "POST", `${base}/resume`, body),
    /** Claim, release or reassign a task's open review. */
    review: (id: string, taskId: string, body: ReviewAction) =>
      request(
        schema("OpenReviewSchema"),
        "POST",
        `${base}/executions/${id}/reviews/${encodeURIComponent(taskId)}`,
        body,
      ),
  };
}
