import type { AgentDef, TaskDef } from "@/lib/crew/schema";
import { groupStart } from "@/lib/run-model/next-tasks";
import { type InputValue, interpolate } from "@/lib/util/placeholders";

export type ContextItem = { task_id: string; name: string; output: string };

// The prompt every model gets, in sections the offline model can also read.
export function buildPrompt({
  agent,
  task,
  inputs,
  context,
  feedback = [],
  revision,
}: {
  agent: AgentDef;
  task: TaskDef;
  inputs: Record<string, InputValue>;
  context: ContextItem[];
  /** Reviewers' feedback on approved tasks: context for every later task. */
  feedback?: { task_id: string; feedback: string }[];
  /** The rejected previous attempt of this task, to be revised. */
  revision?: { output: string; feedback: string };
}) {
  // Each text within its budget (PlaceholderBudgetError names the one that is not).
  const fill = (text: string, field: string) => interpolate(text, inputs, { field });
  const who = `Agent '${agent.id}'`;
  const what = `Task '${task.id}'`;
  const system = [
    `You are ${fill(agent.role, `${who} role`)}.`,
    fill(agent.backstory, `${who} backstory`),
    `Your personal goal is: ${fill(agent.goal, `${who} goal`)}`,
    "Work on the task you are given. Use your tools when they help. When you are done, reply with the complete final answer only.",
  ].join("\n");
  const parts = [
    `# Task\n${fill(task.description, `${what} description`)}`,
    ...(task.expected_output
      ? [`# Expected output\n${fill(task.expected_output, `${what} expected_output`)}`]
      : []),
  ];
  if (context.length) {
    parts.push(
      `# Context\n${context.map((c) => `### ${c.name} (${c.task_id})\n${c.output}`).join("\n\n")}`,
    );
  }
  if (feedback.length) {
    parts.push(
      `# Reviewer feedback\n${feedback.map((f) => `- on ${f.task_id}: ${f.feedback}`).join("\n")}`,
    );
  }
  if (revision) {
    parts.push(`# Previous attempt\n${revision.output}`);
    parts.push(`# Revise it: reviewer feedback\n${revision.feedback}`);
  }
  return { system, prompt: parts.join("\n\n") };
}

/**
 * The outputs a task builds on: its `context` list, or every earlier task's — for an async task,
 * every task before its parallel group, so what it sees never depends on which neighbour
 * finished first.
 */
export function contextFor(
  task: TaskDef,
  tasks: TaskDef[],
  outputs: Map<string, string>,
): ContextItem[] {
  const earlier = tasks.slice(
    0,
    groupStart(
      tasks,
      tasks.findIndex((t) => t.id === task.id),
    ),
  );
  const wanted = task.context ?? earlier.map((t) => t.id);
  return earlier.flatMap((t) => {
    const output = wanted.includes(t.id) ? outputs.get(t.id) : undefined;
    return output === undefined ? [] : [{ task_id: t.id, name: t.name, output }];
  });
}
