import type { ResumeRequest } from "@/lib/contract/crew";
import type { ReviewAction } from "@/lib/contract/reviews";
import { contract, request } from "./request";

const crewSchemas = contract(() => import("@/lib/contract/crew"));
const statusSchemas = contract(() => import("@/lib/contract/status"));
const reviewSchemas = contract(() => import("@/lib/contract/reviews"));
const catalogSchemas = contract(() => import("@/lib/contract/crew-catalog"));

// One crew's endpoints (the CrewAI-compatible API), as the dashboard calls them.
export function crewApi(crew: string) {
  const base = `/api/crews/${encodeURIComponent(crew)}`;
  return {
    inputs: () => request(crewSchemas("InputsResponseSchema"), "GET", `${base}/inputs`),
    /** The crew as loaded: its agents and their models, tasks, warnings. */
    definition: () => request(catalogSchemas("CrewDescriptionSchema"), "GET", `${base}/definition`),
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
    /** Start `id` again: some inputs changed, some agents (or "*") on other models. */
    rerun: (
      id: string,
      body: { inputs?: Record<string, unknown>; models?: Record<string, string> },
    ) =>
      request(crewSchemas("RerunResponseSchema"), "POST", `${base}/executions/${id}/rerun`, body),
    /** A new run starting at `from_task`, the tasks before it taken from `id` (one edited). */
    fork: (id: string, body: { from_task: string; edit?: { task_id: string; output: string } }) =>
      request(crewSchemas("RerunResponseSchema"), "POST", `${base}/executions/${id}/fork`, body),
    reruns: (id: string) =>
      request(crewSchemas("RerunsResponseSchema"), "GET", `${base}/executions/${id}/reruns`),
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
