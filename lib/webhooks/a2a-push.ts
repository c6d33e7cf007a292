import crypto from "node:crypto";
import { z } from "zod";
import { seal, unseal } from "@/lib/config/encryption";
import type { ExecutionStatus } from "@/lib/contract/states";
import type { A2aPush, AppliedEvent, ExecutionRow } from "@/lib/run-model/types";

// A2A 1.0 push notifications: a task's updates POSTed to the endpoints its client registered,
// through this outbox (signed, retried, logged like every webhook). Each POST is one A2A
// StreamResponse: a statusUpdate when the task changes state, the result as an artifactUpdate.

/** The A2A TaskState of each run status. */
export const A2A_STATE: Record<ExecutionStatus, string> = {
  queued: "TASK_STATE_SUBMITTED",
  running: "TASK_STATE_WORKING",
  pending_human_input: "TASK_STATE_INPUT_REQUIRED",
  completed: "TASK_STATE_COMPLETED",
  error: "TASK_STATE_FAILED",
  cancelled: "TASK_STATE_CANCELED",
};

/** The events that can change a task's state: each batch with one is pushed. */
const MOVES = new Set([
  "execution_started",
  "review_requested",
  "review_submitted",
  "execution_completed",
  "execution_failed",
  "execution_cancelled",
]);

/** The sentence a run waiting on a review carries, in every protocol. */
export function reviewSentence(review: { task_id: string; kind: string; output: string }) {
  const what =
    review.kind === "tool_call"
      ? `tool calls of task '${review.task_id}' await approval`
      : `task '${review.task_id}' awaits review`;
  return `Waiting for a person: ${what} in the inbox, or reply with a decision. Output to review:\n${review.output}`;
}

/** A registered endpoint, its Authorization and notification token sealed together. */
export function a2aPush(config: {
  url: string;
  token?: string;
  authentication?: { scheme: string; credentials?: string };
}): A2aPush {
  const headers: Record<string, string> = {};
  if (config.authentication?.credentials)
    headers.authorization = `${config.authentication.scheme} ${config.authentication.credentials}`;
  if (config.token) headers["x-a2a-notification-token"] = config.token;
  return {
    id: crypto.randomUUID(),
    url: config.url,
    ...(Object.keys(headers).length ? { headers_sealed: seal(JSON.stringify(headers)) } : {}),
  };
}

const sealedHeaders = z.record(z.string(), z.string());

/** The headers a push delivery carries, unsealed at sending. */
export const pushHeaders = (sealed: string | null | undefined): Record<string, string> =>
  sealed ? sealedHeaders.parse(JSON.parse(unseal(sealed))) : {};

export const pushesAny = (pushes: A2aPush[] | undefined, events: AppliedEvent[]) =>
  !!pushes?.length && events.some((e) => MOVES.has(e.type));

/** The StreamResponses one batch of a run's events makes: none unless its state may have moved. */
export function pushPayloads(row: ExecutionRow, events: AppliedEvent[]): object[] {
  if (!events.some((e) => MOVES.has(e.type))) return [];
  const contextId = typeof row.meta?.a2a_context === "string" ? row.meta.a2a_context : row.id;
  const ids = { taskId: row.id, contextId };
  const review = row.open_reviews?.[0];
  const text =
    row.status === "pending_human_input" && review
      ? reviewSentence({ ...review, kind: review.tool_calls ? "tool_call" : "output" })
      : row.status === "error" || row.status === "cancelled"
        ? (row.error ?? row.result ?? "")
        : null;
  const message = text
    ? {
        message: {
          messageId: crypto.randomUUID(),
          ...ids,
          role: "ROLE_AGENT",
          parts: [{ text }],
        },
      }
    : {};
  const status = { state: A2A_STATE[row.status], ...message, timestamp: new Date().toISOString() };
  const artifact =
    row.status === "completed"
      ? [
          {
            artifactUpdate: {
              ...ids,
              artifact: {
                artifactId: `${row.id}:result`,
                name: "result",
                parts: [{ text: row.result ?? "", mediaType: "text/plain" }],
              },
              lastChunk: true,
            },
          },
        ]
      : [];
  return [...artifact, { statusUpdate: { ...ids, status, metadata: { status: row.status } } }];
}
