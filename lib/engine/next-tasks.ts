import type { TaskDef } from "@/lib/crew/schema";
import type { TaskState } from "@/lib/runs/types";

/**
 * The tasks to run now, by index: the first task not completed, or — when it is async — every
 * task of its group of consecutive async tasks not completed yet, to run side by side (the next
 * task that is not async waits for all of them, as in CrewAI). Empty when all are done.
 */
export function nextTasks(defs: TaskDef[], states: TaskState[]): number[] {
  const first = states.findIndex((t) => t.status !== "completed");
  if (first < 0 || !defs[first]) return [];
  if (!defs[first].async_execution) return [first];
  const group: number[] = [];
  for (let i = first; i < defs.length && defs[i]?.async_execution; i++) {
    if (states[i]?.status !== "completed") group.push(i);
  }
  return group;
}

/** Where the group of consecutive async tasks holding task `index` begins (itself if not async). */
export function groupStart(defs: TaskDef[], index: number): number {
  let start = index;
  while (defs[index]?.async_execution && start > 0 && defs[start - 1]?.async_execution) start--;
  return start;
}
