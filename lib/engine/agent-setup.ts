import type { AgentDef, TaskDef } from "@/lib/crew/schema";
import type { GatedCall } from "@/lib/run-model/review-types";
import type { ExecutionRow } from "@/lib/run-model/types";
import type { AgentTool } from "@/lib/tools/types";
import { type InputValue, interpolate } from "@/lib/util/placeholders";
import { buildPrompt } from "./prompt";
import type { AgentStep } from "./run-agent";

// What an agent's attempt is set up with, decided on data alone: the team as the model reads it,
// the prompt a coworker is asked with, the step budget and what is shown of tool arguments.

/** The agent with the run's inputs filled into its role and goal. */
export const agentWithInputs = (a: AgentDef, inputs: Record<string, InputValue>): AgentDef => ({
  ...a,
  role: interpolate(a.role, inputs, { field: `Agent '${a.id}' role` }),
  goal: interpolate(a.goal, inputs, { field: `Agent '${a.id}' goal` }),
});

/**
 * The prompt a coworker gets when `agent` hands it work (`delegate`) or asks it a question
 * (`ask`): the request as its task, with the asking agent's context, if any, as the context.
 */
export function coworkerPrompt({
  agent,
  coworker,
  task,
  inputs,
  kind,
  request,
  context,
}: {
  agent: AgentDef;
  coworker: AgentDef;
  task: TaskDef;
  inputs: Record<string, InputValue>;
  kind: "delegate" | "ask";
  request: string;
  context: string;
}) {
  // The asking agent's role is filled in only when there is context to name it by.
  const from = () => interpolate(agent.role, inputs, { field: `Agent '${agent.id}' role` });
  return buildPrompt({
    agent: coworker,
    task: {
      ...task,
      description: request,
      expected_output:
        kind === "ask"
          ? "A clear, complete answer to the question."
          : "The complete result of this work, to hand back to your coworker.",
      context: undefined,
    },
    inputs,
    context: context.trim() ? [{ task_id: task.id, name: `From ${from()}`, output: context }] : [],
  });
}

/** The model calls left to an attempt: what a pause used counts, and at least one remains. */
export const stepsLeft = (maxSteps: number, usedBeforePause: number | undefined) =>
  usedBeforePause === undefined ? maxSteps : Math.max(1, maxSteps - usedBeforePause);

/** A tool's arguments as they may be recorded and shown: its secrets blotted out. */
export function argumentsShown(listed: AgentTool[]) {
  const byName = new Map(listed.map((t) => [t.name, t]));
  return (tool: string, input: unknown) => byName.get(tool)?.redact?.(input) ?? input;
}

/** Steps as recorded: each tool call's arguments as shown. */
export const stepsShown = (steps: AgentStep[], shown: ReturnType<typeof argumentsShown>) =>
  steps.map((st) =>
    st.type === "tool_call" ? { ...st, tool_input: shown(st.tool, st.tool_input) } : st,
  );

/**
 * The gated calls as the reviewer sees them: where each tool comes from, and no secret of its.
 * (Approved unedited, a call runs with the model's own arguments: settleDecidedCalls.)
 */
export function gatedCallsShown(calls: GatedCall[], listed: AgentTool[]): GatedCall[] {
  const byName = new Map(listed.map((t) => [t.name, t]));
  const shown = argumentsShown(listed);
  return calls.map((c) => {
    const t = byName.get(c.tool);
    if (!t) return c;
    const args = shown(c.tool, c.arguments);
    return { ...c, arguments: args, source: t.source, writes: t.writes, server: t.server };
  });
}

/**
 * Only an experiment's cell, or a run nested in one (a flow cell's crews), draws on a spend
 * budget: every other run skips the budget's lookup before its first model call.
 */
export function mayDrawOnBudget(row: Pick<ExecutionRow, "parent_id" | "meta">): boolean {
  return row.parent_id !== null || row.meta?.experiment !== undefined;
}
