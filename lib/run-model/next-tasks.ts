import type { TaskDef } from "@/lib/crew/schema";
import type { TaskState } from "./types";

/**
 * The tasks to run now, by index: the first task not completed, or — when it is async — every
 * task of its group of consecutive async tasks not completed yet, to run side by side (the next
 * task that is not async waits for all of them, as in CrewAI). A task awaiting review does not
 * run, and what follows it waits. Empty when all are done, or all that is left awaits review.
 */
export function nextTasks(defs: TaskDef[], states: TaskState[]): number[] {
  const first = states.findIndex((t) => t.status !== "completed");
  if (first < 0 || !defs[first]) return [];
  const runnable = (i: number) =>
    states[i]?.status !== "completed" && states[i]?.status !== "pending_human_input";
  if (!defs[first].async_execution) return runnable(first) ? [first] : [];
  const group: number[] = [];
  for (let i = first; i < defs.length && defs[i]?.async_execution; i++) {
    if (runnable(i)) group.push(i);
  }
  return group;
}

/** Where the group of consecutive async tasks holding task `index` begins (itself if not async). */
export function groupStart(defs: TaskDef[], index: number): number {
  let start = index;
  while (defs[index]?.async_execution && start > 0 && defs[start - 1]?.async_execution) start--;
  return start;
}
