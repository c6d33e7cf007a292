import type { RunsPage } from "@/lib/api/client";

export type InboxRun = RunsPage["runs"][number];
/** Per crew, per task id: the task's name and expected output (local crews only). */
export type TaskInfo = Record<string, Record<string, { name: string; expected: string }>>;

/** When review was requested (some remote deployments' runs do not say: then the start). */
export function waitingSince(run: InboxRun): string {
  return run.pending_human_input?.requested_at ?? run.started_at ?? run.created_at;
}

/** Per crew: its name and its inputs' order (the list's inputs come back in storage order). */
export type CrewInfo = Record<string, { name: string; inputs: string[] }>;

/** The run's inputs in the crew's order. */
export function orderedInputs(run: InboxRun, crews: CrewInfo): [string, unknown][] {
  const order = crews[run.crew]?.inputs ?? [];
  const rank = (k: string) => (order.includes(k) ? order.indexOf(k) : order.length);
  return Object.entries(run.inputs).sort(([a], [b]) => rank(a) - rank(b));
}

export type Decision = {
  runId: string;
  crew: string;
  taskId: string;
  attempt: number;
  message: string;
};
