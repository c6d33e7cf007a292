import type { ExecutionEvent, StatusResponse } from "@/lib/contract/status";
import type { TraceStep, TraceTask } from "./trace-types";

// What buildTrace needs to read events: their times and texts, delegation, labels, the end.

export const at = (iso: string) => Date.parse(iso);
export const text = (v: unknown) => (typeof v === "string" ? v : v === undefined ? "" : String(v));

export const DELEGATION_TOOLS = new Set(["delegate_work_to_coworker", "ask_question_to_coworker"]);
const isDelegated = (s: TraceStep) => Boolean(s.events[0]?.data.delegated_by);

/**
 * A coworker works inside the delegation call, so its steps are written before the call itself
 * (a call is recorded once it returns). Shown as they happened: the call, then the coworker's
 * steps under it, from the call's start.
 */
export function placeUnderCall(steps: TraceStep[]) {
  const call = steps.pop() as TraceStep;
  const moved = steps.filter((s) => isDelegated(s) && s.under === undefined);
  for (const s of moved) s.under = call.key;
  if (moved.length) call.start = Math.min(call.start, ...moved.map((s) => s.start));
  steps.splice(0, steps.length, ...steps.filter((s) => !moved.includes(s)), call, ...moved);
}

// CrewAI's delegation tools read as what they do: "Delegated to writer", "Asked researcher".
export function toolLabel(d: Record<string, unknown>) {
  const coworker = (d.tool_input as { coworker?: unknown } | undefined)?.coworker;
  if (d.tool === "delegate_work_to_coworker" && typeof coworker === "string")
    return `Delegated to ${coworker}`;
  if (d.tool === "ask_question_to_coworker" && typeof coworker === "string")
    return `Asked ${coworker}`;
  return text(d.tool) || "Tool";
}

// When a finished run ended: its last event or its measured time, whichever is later.
const FINAL = new Set(["completed", "error", "cancelled"]);

export function finishedAt(status: StatusResponse, lastEvent: number | null): number | null {
  if (!FINAL.has(status.status)) return null;
  const measured =
    status.execution_time !== null ? at(status.created_at) + status.execution_time * 1000 : null;
  return Math.max(lastEvent ?? 0, measured ?? at(status.updated_at));
}

export function remoteLabel(e: ExecutionEvent): string {
  if (e.type === "remote_status") return `Status: ${text(e.data.to).replaceAll("_", " ")}`;
  if (e.type === "remote_error") return "Deployment error";
  return `${e.type.replace("remote_", "")} from the deployment`;
}

/**
 * Once the run has ended (`runEnd`), nothing stays open: steps and attempts end with it, a
 * review still waiting was cut short. A task's bar spans all its attempts.
 */
export function closeTasks(tasks: Iterable<TraceTask>, runEnd: number | null) {
  for (const t of tasks) {
    for (const a of t.attempts) {
      const lastStep = a.steps.at(-1);
      if (a.end === null && (lastStep?.end ?? null) !== null && t.status !== "running")
        a.end = lastStep?.end ?? null;
      // A run that ended leaves nothing open.
      if (runEnd !== null) {
        for (const s of a.steps) {
          if (s.end !== null) continue;
          s.end = runEnd;
          if (s.kind === "review") {
            s.label = "Review cut short";
            s.short = undefined;
          }
        }
        a.end ??= runEnd;
      }
    }
    // The task's bar spans all its attempts (/status only knows when the latest one started).
    const firstAttempt = t.attempts[0]?.start ?? null;
    if (firstAttempt !== null) t.start = Math.min(t.start ?? firstAttempt, firstAttempt);
    if (t.end === null && runEnd !== null && t.attempts.length) t.end = runEnd;
    if (t.status === "running" || t.status === "pending_human_input") t.end = null;
  }
}

/**
 * A stop cut off the tasks it found at work (on screen "cancelled"): each says so after its last
 * step, by whom and why, and what was going on is closed there — not left running to the axis end.
 */
export function markStopped(tasks: Iterable<TraceTask>, stop: ExecutionEvent) {
  const when = at(stop.created_at);
  const by = text(stop.data.stopped_by);
  for (const t of tasks) {
    const a = t.status === "cancelled" ? t.attempts.at(-1) : undefined;
    if (!a) continue;
    for (const s of a.steps) {
      if (s.end !== null) continue;
      s.end = when;
      if (s.kind === "review") {
        s.label = "Review cut short";
        s.short = undefined;
      }
    }
    const prev = a.steps.at(-1);
    a.steps.push({
      key: `e${stop.seq}-${t.taskId}`,
      kind: "stopped",
      label: by ? `Stopped by ${by}` : "Stopped",
      taskId: t.taskId,
      attempt: a.attempt,
      start: Math.min(prev ? (prev.end ?? prev.start) : a.start, when),
      end: when,
      events: [stop],
    });
    a.end = when;
    t.end = when;
  }
}
