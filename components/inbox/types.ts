import type { InboxReview } from "@/lib/api/client";

export type { InboxReview };
/** Per crew, per task id: the task's name and expected output (local crews only). */
export type TaskInfo = Record<string, Record<string, { name: string; expected: string }>>;

/** Per crew: its name and its inputs' order (the list's inputs come back in storage order). */
export type CrewInfo = Record<string, { name: string; inputs: string[] }>;

/** The run's inputs in the crew's order. */
export function orderedInputs(
  run: { crew: string; inputs: Record<string, unknown> },
  crews: CrewInfo,
): [string, unknown][] {
  const order = crews[run.crew]?.inputs ?? [];
  const rank = (k: string) => (order.includes(k) ? order.indexOf(k) : order.length);
  return Object.entries(run.inputs).sort(([a], [b]) => rank(a) - rank(b));
}

/** One review in the queue: its run and task (a run may have several open at once). */
export const reviewKey = (r: { execution_id: string; task_id: string }) =>
  `${r.execution_id}/${r.task_id}`;

export type Decision = {
  runId: string;
  crew: string;
  taskId: string;
  attempt: number;
  message: string;
  /** Someone else's decision (or a hand-off): said until dismissed, whatever the run does next. */
  elsewhere?: boolean;
};
