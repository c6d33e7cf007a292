import type { RunsPage } from "@/lib/api/client";

export type InboxRun = RunsPage["runs"][number];
/** Per crew, per task id: the task's name and expected output (local crews only). */
export type TaskInfo = Record<string, Record<string, { name: string; expected: string }>>;

/** When review was requested: the list passes the stored `requested_at` through. */
export function waitingSince(run: InboxRun): string {
  const p = run.pending_human_input as { requested_at?: unknown } | null;
  return typeof p?.requested_at === "string" ? p.requested_at : (run.started_at ?? run.created_at);
}

export type Decision = {
  runId: string;
  crew: string;
  taskId: string;
  attempt: number;
  message: string;
};
