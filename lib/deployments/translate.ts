import crypto from "node:crypto";
import type { ExecutionStatus } from "@/lib/run-model/states";
import type { ExecutionRow, NewEvent } from "@/lib/run-model/types";
import type { ExecutionPatch } from "@/lib/runs/execution-store";
import { fieldOf, isRecord } from "@/lib/util/field";
import type { HookKind } from "./hooks";
import type { RemoteStatus, RemoteTask } from "./remote-status";

/** The tasks a /status answer lists, and whether it says the run completed. */
export type TaskSnapshot = { tasks: RemoteTask[]; completed: boolean };

// Turning what a remote deployment says — its event log, its webhooks, its /status — into events
// of our log and a new state for the run. Each event gets a key saying what it is, so the same
// event arriving by webhook and by polling is stored once.

const FINAL: Record<string, string> = {
  completed: "execution_completed",
  error: "execution_failed",
  cancelled: "execution_cancelled",
};

/** The key of an event that means the same whatever way it arrived. */
function semanticKey(type: string, taskId: string | null, attempt: number | null) {
  if (type === "task_completed" || type === "review_requested" || type === "review_submitted")
    return `${type}:${taskId}:${attempt ?? 1}`;
  if (Object.values(FINAL).includes(type)) return "end";
  return undefined;
}

export const hashOf = (value: unknown) =>
  crypto
    .createHash("sha256")
    .update(JSON.stringify(value) ?? "")
    .digest("base64url")
    .slice(0, 22);

export type RemoteEvent = {
  seq: number;
  type: string;
  task_id: string | null;
  attempt: number | null;
  data: Record<string, unknown>;
};

/** An event of a remote Crewdeck's log, mirrored as it is. */
export function fromRemoteLog(e: RemoteEvent): NewEvent {
  return {
    key: semanticKey(e.type, e.task_id, e.attempt) ?? `seq:${e.seq}`,
    type: e.type,
    task_id: e.task_id,
    attempt: e.attempt,
    data: e.data,
  };
}

const str = (v: unknown) => (typeof v === "string" ? v : null);
const num = (v: unknown) => (typeof v === "number" && Number.isInteger(v) ? v : null);

/**
 * A webhook body as an event. Crewdeck's bodies (with `sequence` and `event`) map to the same
 * events as its log; anything else is kept whole as a `remote_<kind>` event, keyed by its
 * webhook-id or, failing that, its content.
 */
export function fromWebhook(kind: HookKind, body: unknown, webhookId: string | null): NewEvent {
  const b = isRecord(body) ? body : {};
  const seq = num(b.sequence);
  const taskId = str(b.task_id);
  const attempt = num(b.attempt);
  if (seq !== null && b.event === kind) {
    if (kind === "step") {
      const type = str(b.type) ?? "step";
      return {
        key: `seq:${seq}`,
        type,
        task_id: taskId,
        attempt,
        data: {
          agent: b.agent ?? null,
          text: type === "thought" ? b.thought : type === "answer" ? b.result : undefined,
          tool: b.tool ?? undefined,
          tool_input: b.tool_input ?? undefined,
          result: type === "tool_result" ? b.result : undefined,
        },
      };
    }
    if (kind === "task") {
      const type = b.requires_review === true ? "review_requested" : "task_completed";
      return {
        key: semanticKey(type, taskId, attempt),
        type,
        task_id: taskId,
        attempt,
        data: { agent: b.agent ?? null, name: b.name ?? taskId, output: b.output ?? null },
      };
    }
    // A remote's status is its own text: only FINAL's own keys name an ending.
    const status = String(b.status);
    const type = (Object.hasOwn(FINAL, status) && FINAL[status]) || "remote_crew";
    return {
      key: type === "remote_crew" ? `seq:${seq}` : "end",
      type,
      data: { result: b.result ?? null, error: b.error ?? null },
    };
  }
  return {
    key: webhookId ? `wh:${webhookId}` : `body:${hashOf(body)}`,
    type: `remote_${kind}`,
    task_id: taskId,
    data: { payload: body },
  };
}

/** What an event says about the run's state, so state and event change together. */
function stateFromEvent(e: NewEvent): ExecutionPatch {
  const d = e.data ?? {};
  switch (e.type) {
    case "execution_started":
      return { status: "running", started_at: new Date() };
    case "review_requested":
      return {
        status: "pending_human_input",
        pending_human_input: {
          task_id: e.task_id,
          output: str(d.output) ?? "",
          attempt: e.attempt ?? 1,
          requested_at: new Date().toISOString(),
        },
      };
    case "review_submitted":
      return { status: "running", pending_human_input: null };
    case "execution_completed":
      return { status: "completed", result: str(d.result), finished_at: new Date() };
    case "execution_failed":
      return { status: "error", error: str(d.error) ?? "failed remotely", finished_at: new Date() };
    case "execution_cancelled":
      return { status: "cancelled", finished_at: new Date() };
    default:
      return {};
  }
}

/** The state after a batch of events, in order. */
export const stateFromEvents = (events: NewEvent[]): ExecutionPatch =>
  Object.assign({}, ...events.map(stateFromEvent));

/**
 * A /status answer as a new state and, for a remote without an event log of its own, the
 * events it implies (a step, a task done, a review asked for, the end). `mirrored` remotes'
 * events come from their log instead, so nothing is derived twice.
 */
export function fromStatus(
  row: Pick<ExecutionRow, "status" | "remote" | "pending_human_input">,
  status: RemoteStatus,
  { mirrored }: { mirrored: boolean },
): { patch: ExecutionPatch; events: NewEvent[]; changed: boolean; snapshot?: TaskSnapshot } {
  const patch: ExecutionPatch = {};
  const events: NewEvent[] = [];
  const to: ExecutionStatus | null = status.state;
  const rawChanged = hashOf(status.raw) !== hashOf(row.remote?.raw_status);
  // Its tasks are merged with the log's under the row's lock (applyRemote), not taken as they are.
  const snapshot = status.tasks.length
    ? { tasks: status.tasks, completed: to === "completed" }
    : undefined;
  if (status.pending)
    patch.pending_human_input = {
      task_id: status.pending.task_id,
      output: status.pending.output ?? "",
      attempt: status.pending.attempt ?? 1,
      // Kept while the same review is awaited, so its wait is counted from when it began.
      requested_at: requestedAt(row.pending_human_input) ?? new Date().toISOString(),
    };
  else if (to && to !== "pending_human_input") patch.pending_human_input = null;
  if (status.last_step) patch.last_step = status.last_step;
  if (to === "completed") patch.result = status.result;
  if (to === "error") patch.error = status.error ?? "failed remotely";
  if (to && to !== row.status) {
    patch.status = to;
    if (to === "running" && row.status === "queued") patch.started_at = new Date();
    if (to === "completed" || to === "error" || to === "cancelled") patch.finished_at = new Date();
  }
  if (to === null && rawChanged)
    events.push({
      key: `raw:${hashOf(status.raw)}`,
      type: "remote_unrecognized",
      data: { raw: status.raw },
    });
  // A change of state seen only by polling is an event too, so every timeline learns of it.
  if (to && to !== row.status)
    events.push({
      type: "remote_status",
      data: { from: row.status, to, raw_state: stateWord(status.raw) },
    });
  if (!mirrored) {
    if (status.last_step) {
      const key = `step:${hashOf(status.last_step)}`;
      if (key !== `step:${row.remote?.last_step_hash}`)
        events.push({
          key,
          type: "thought",
          data: { text: status.last_step.text ?? status.last_step.type ?? "", via: "polling" },
        });
    }
    for (const t of status.tasks)
      if (t.output !== null && (t.status === "completed" || to === "completed"))
        events.push({
          key: semanticKey("task_completed", t.task_id, 1),
          type: "task_completed",
          task_id: t.task_id,
          attempt: 1,
          data: { name: t.name ?? t.task_id, output: t.output, via: "polling" },
        });
    if (status.pending)
      events.push({
        key: semanticKey("review_requested", status.pending.task_id, status.pending.attempt),
        type: "review_requested",
        task_id: status.pending.task_id,
        attempt: status.pending.attempt ?? 1,
        data: { output: status.pending.output, via: "polling" },
      });
    const final = to ? FINAL[to] : undefined;
    if (final)
      events.push({
        key: "end",
        type: final,
        data: { result: status.result, error: status.error, via: "polling" },
      });
  }
  return { patch, events, changed: rawChanged, snapshot };
}

// The review's start as the row keeps it: a string, or none.
function requestedAt(pending: unknown): string | undefined {
  const at = fieldOf(pending, "requested_at");
  return typeof at === "string" ? at : undefined;
}

function stateWord(raw: unknown) {
  return str(fieldOf(raw, "state")) ?? str(fieldOf(raw, "status"));
}
