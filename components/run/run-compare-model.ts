import type { TaskWithUsage } from "./run-types";

/** How one input value reads in the summary: "—" when absent, Yes/No, else text or JSON. */
export const show = (v: unknown) =>
  v === null || v === undefined || v === ""
    ? "—"
    : typeof v === "string"
      ? v
      : typeof v === "boolean"
        ? v
          ? "Yes"
          : "No"
        : JSON.stringify(v);

/** The input names of either run, the first run's first. */
type WithInputs = { inputs?: Record<string, unknown> | undefined };
export function inputNames(a: WithInputs, b: WithInputs): string[] {
  return [...new Set([...Object.keys(a.inputs ?? {}), ...Object.keys(b.inputs ?? {})])];
}

/** The task ids of either run, the first run's first. */
type WithTasks = { tasks: Pick<TaskWithUsage, "task_id">[] };
export function taskIdsOf(a: WithTasks, b: WithTasks): string[] {
  return [...new Set([...a.tasks, ...b.tasks].map((t) => t.task_id))];
}

/** What the page says when the two outputs are the same; null when they differ. */
export function sameOutputNote(
  ta: Pick<TaskWithUsage, "output"> | undefined,
  tb: Pick<TaskWithUsage, "output"> | undefined,
): string | null {
  if ((ta?.output ?? "") !== (tb?.output ?? "")) return null;
  return ta?.output ? "The same output in both runs." : "No output in either run.";
}
