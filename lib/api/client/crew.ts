import { z } from "zod";
import {
  EventsResponseSchema,
  InputsResponseSchema,
  KickoffResponseSchema,
  type ResumeRequest,
  StatusResponseSchema,
  StopResponseSchema,
} from "@/lib/api/schemas";
import { request } from "./request";

// One crew's endpoints (the CrewAI-compatible API), as the dashboard calls them.
const ResumeAnswerSchema = z.object({ status: z.string(), message: z.string() });

export function crewApi(crew: string) {
  const base = `/api/crews/${encodeURIComponent(crew)}`;
  return {
    inputs: () => request(InputsResponseSchema, "GET", `${base}/inputs`),
    kickoff: (inputs: Record<string, string>) =>
      request(KickoffResponseSchema, "POST", `${base}/kickoff`, { inputs }),
    status: (id: string) => request(StatusResponseSchema, "GET", `${base}/status/${id}`),
    events: (id: string, after = 0) =>
      request(EventsResponseSchema, "GET", `${base}/executions/${id}/events?after=${after}`),
    streamUrl: (id: string) => `${base}/executions/${id}/stream`,
    stop: (id: string) => request(StopResponseSchema, "POST", `${base}/stop/${id}`),
    resume: (body: ResumeRequest) => request(ResumeAnswerSchema, "POST", `${base}/resume`, body),
  };
}
