import { type CelContext, evaluateCel, renderTemplate } from "@/lib/crew/flow-eval";
import { crewKey, type FlowPlan } from "@/lib/crew/flow-plan";
import type { FlowAction } from "@/lib/crew/flow-schema";
import type { Db } from "@/lib/db/types";
import type { InputValue } from "@/lib/util/placeholders";
import { type NestedRun, nestedRunId, readNestedRun, startNestedRun } from "./nested-runs";

// One action of a method (crewai/flow/runtime/_actions.py): an expression is worked out here; an
// agent or a crew runs as a nested run, which the flow waits for and then reads.

/** Done with an output (and the nested run that gave it), or waiting for the nested run. */
export type Acted = { output: unknown; child?: string } | { waiting: string };

/** A step of the flow failed: the flow ends with this message. */
export class FlowStepError extends Error {}

export async function act({
  db,
  flowId,
  plan,
  method,
  step,
  action,
  cel,
  key,
}: {
  db: Db;
  flowId: string;
  plan: FlowPlan;
  method: string;
  /** Inside `each`: the step's name. */
  step?: string;
  action: FlowAction;
  cel: CelContext;
  /** Where in the flow this is called (run, item, step): names the nested run. */
  key: string;
}): Promise<Acted> {
  if (action.call === "expression") return { output: evaluateCel(action.expr, cel) };
  if (action.call !== "agent" && action.call !== "crew")
    throw new FlowStepError(`method '${method}': \`call: ${action.call}\` cannot run here`);
  const crew = plan.crews[crewKey(method, step)];
  if (!crew) throw new FlowStepError(`method '${method}': its ${action.call} was not loaded`);
  const id = nestedRunId(flowId, key);
  const run = await readNestedRun(db, id);
  if (!run) {
    await startNestedRun(db, {
      id,
      flowId,
      crew,
      inputs: inputsOf(action, crew, cel, method),
      method,
    });
    return { waiting: id };
  }
  if (run.status === "completed")
    return {
      output: action.call === "agent" ? agentOutput(run, crew) : crewOutput(run),
      child: id,
    };
  if (run.status === "error" || run.status === "cancelled")
    throw new FlowStepError(
      `method '${method}': its ${action.call} run ${id} ${run.status === "error" ? "failed" : "was stopped"}${run.error ? `: ${run.error}` : ""}`,
    );
  return { waiting: id };
}

function inputsOf(
  action: Extract<FlowAction, { call: "agent" | "crew" }>,
  crew: { input_specs?: { name: string; default?: InputValue }[] },
  cel: CelContext,
  method: string,
): Record<string, InputValue> {
  if (action.call === "agent") {
    const input = renderTemplate(action.with.input, cel);
    if (typeof input !== "string")
      throw new FlowStepError(`method '${method}': agent input must render to a string`);
    return { input };
  }
  // A declared crew's own defaults, then the inline crew's inputs, then the action's.
  const defaults = Object.fromEntries(
    (crew.input_specs ?? []).flatMap((s) => (s.default !== undefined ? [[s.name, s.default]] : [])),
  );
  const template = { ...(action.with?.inputs ?? {}), ...(action.inputs ?? {}) };
  const rendered = renderTemplate(template, cel);
  const values: Record<string, InputValue> = { ...defaults };
  if (rendered && typeof rendered === "object")
    for (const [k, v] of Object.entries(rendered)) values[k] = inputValue(v);
  return values;
}

function inputValue(v: unknown): InputValue {
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v;
  if (v === null || v === undefined) return "";
  return JSON.stringify(v);
}

/** A crew's output as CEL reads it: CrewAI's CrewOutput (raw, json_dict, tasks_output). */
function crewOutput(run: NestedRun) {
  const raw = run.result ?? "";
  return {
    raw,
    json_dict: jsonObjectIn(raw),
    tasks_output: run.tasks.map((t) => ({ name: t.name, agent: t.agent, raw: t.output ?? "" })),
    token_usage: run.token_usage,
  };
}

/** An agent's output as CEL reads it: CrewAI's LiteAgentOutput (raw, agent_role). */
function agentOutput(run: NestedRun, crew: { agents: { role: string }[] }) {
  return {
    raw: run.result ?? "",
    agent_role: crew.agents[0]?.role ?? "",
    usage_metrics: run.token_usage,
  };
}

function jsonObjectIn(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? { ...v } : null;
  } catch {
    return null;
  }
}

/** The text of an output: a string as it is, CrewAI's outputs by their `raw`, else JSON. */
export function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  if (output && typeof output === "object" && "raw" in output && typeof output.raw === "string")
    return output.raw;
  if (output === null || output === undefined) return "";
  return JSON.stringify(output);
}
