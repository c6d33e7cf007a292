import type { VariantChanges } from "@/lib/contract/datasets";

// What "New variant" saves: only what differs from the crew, and why it cannot be saved yet.

/** Only what differs from the crew: a field left as it was is no change. */
export function changed<T extends Record<string, string>>(now: T, edited: Partial<T>) {
  return Object.fromEntries(
    Object.entries(edited).filter(
      ([k, v]) => v !== undefined && v.trim() !== (now[k] ?? "").trim(),
    ),
  );
}

const isProcess = (p: string): p is "sequential" | "hierarchical" =>
  p === "sequential" || p === "hierarchical";

/** One agent's and one task's edits (each against what it is now) and the process, if chosen. */
export function variantChanges<A extends Record<string, string>, T extends Record<string, string>>(
  agent: { id: string; now: A | undefined; edits: Partial<A> },
  task: { id: string; now: T | undefined; edits: Partial<T> },
  process: string,
): VariantChanges {
  const changes: VariantChanges = {};
  const a = agent.now ? changed(agent.now, agent.edits) : {};
  const t = task.now ? changed(task.now, task.edits) : {};
  if (Object.keys(a).length) changes.agents = { [agent.id]: a };
  if (Object.keys(t).length) changes.tasks = { [task.id]: t };
  if (isProcess(process)) changes.process = process;
  return changes;
}

/** Why the variant cannot be saved as it is, or null. */
export function variantProblem(name: string, changes: VariantChanges): string | null {
  if (!name.trim()) return "Name the variant.";
  if (!Object.keys(changes).length)
    return "Change at least one thing: a model, a prompt, a task or the process.";
  return null;
}
