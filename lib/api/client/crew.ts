import type { ResumeRequest } from "@/lib/contract/crew";
import type { ReviewAction } from "@/lib/contract/reviews";
import { contract, request } from "./request";

const crewSchemas = contract(() => import("@/lib/contract/crew"));
const statusSchemas = contract(() => import("@/lib/contract/status"));
const reviewSchemas = contract(() => import("@/lib/contract/reviews"));

// One crew's endpoints (the CrewAI-compatible API), as the dashboard calls them.
export function crewApi(crew: string) {
  const base = `/api/crews/${encodeURIComponent(crew)}`;
  return {
    inputs: () => request(crewSchemas("InputsResponseSchema"), "GET", `${base}/inputs`),
    kickoff: (inputs: Record<string, unknown>, meta?: Record<string, unknown>) =>
      request(crewSchemas("KickoffResponseSchema"), "POST", `${base}/kickoff`, { inputs, meta }),
    status: (id: string) =>
      request(statusSchemas("StatusResponseSchema"), "GET", `${base}/status/${id}`),
    events: (id: string, after = 0) =>
      request(
        statusSchemas("EventsResponseSchema"),
        "GET",
        `${base}/executions/${id}/events?after=${after}`,
      ),
    streamUrl: (id: string) => `${base}/executions/${id}/stream`,
    stop: (id: string) => request(crewSchemas("StopResponseSchema"), "POST", `${base}/stop/${id}`),
    resume: (body: ResumeRequest) =>
      request(crewSchemas("ResumeResponseSchema"), "POST", `${base}/resume`, body),
    /** Claim, release or reassign a task's open review. */
    review: (id: string, taskId: string, body: ReviewAction) =>
      request(
        reviewSchemas("OpenReviewSchema"),
        "POST",
        `${base}/executions/${id}/reviews/${encodeURIComponent(taskId)}`,
        body,
      ),
  };
}
