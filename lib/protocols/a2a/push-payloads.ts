import crypto from "node:crypto";
import { seal } from "@/lib/config/encryption";
import type { ExecutionStatus } from "@/lib/contract/states";
import type { AppliedEvent, ExecutionRow, ProtocolPush } from "@/lib/run-model/types";
import { type PushRenderer, wirePushRenderer } from "@/lib/webhooks/protocol-push";
import { reviewSentence } from "../review-sentence";

// A2A 1.0 push notifications: a task's updates POSTed to the endpoints its client registered,
// through the webhook outbox (lib/webhooks/protocol-push.ts). Each POST is one A2A
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

/** A registered endpoint, its Authorization and notification token sealed together. */
export function a2aPush(config: {
  url: string;
  token?: string;
  authentication?: { scheme: string; credentials?: string };
}): ProtocolPush {
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

const moves = (events: AppliedEvent[]) => events.some((e) => MOVES.has(e.type));

/** The StreamResponses one batch of a run's events makes: none unless its state may have moved. */
function pushPayloads(row: ExecutionRow, events: AppliedEvent[]): object[] {
  if (!moves(events)) return [];
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

export const a2aPushRenderer: PushRenderer = { moves, payloads: pushPayloads };

/** Wires A2A's renderer into this process's outbox: every process that writes runs calls it. */
export const wireA2aPushes = () => wirePushRenderer("a2a", a2aPushRenderer);
