import fs from "node:fs";
import path from "node:path";
import { skippedPatternWarnings } from "@/lib/outputs/schema-patterns";
import { crewFromDoc } from "./crew-doc";
import { crewKey, type FlowCondition, type FlowMethod, type FlowPlan } from "./flow-plan";
import type { FlowAction, FlowFile } from "./flow-schema";
import { type InputSpec, titleFromName } from "./input-schema";
import { isObject, LoadError, parseOrThrow, type Warn } from "./read-files";
import { ReviewBlockSchema } from "./review-policy";
import type { CrewDef, TaskDef } from "./schema";

// A flow declaration made ready to run: each crew its methods call is built now (an inline
// crew, an agent, a crew declared in another folder), the state's inputs are typed for
// GET /inputs and the kickoff form, and the flow becomes a CrewDef whose tasks are its methods,
// so runs, reviews, the inbox and the dashboard treat a flow's methods as they treat tasks.

/** Reads a crew folder (load-crews.ts): how `from_declaration` reaches a project's crews. */
export type LoadFolder = (slug: string, folder: string, warn: Warn) => CrewDef;

export function compileFlow({
  slug,
  file,
  flow,
  warn,
  loadFolder,
}: {
  slug: string;
  file: string;
  flow: FlowFile;
  warn: Warn;
  loadFolder: LoadFolder;
}): CrewDef {
  const crews: Record<string, CrewDef> = {};
  const reviews: Record<string, TaskDef["review"]> = {};
  const methods: FlowMethod[] = Object.entries(flow.methods).map(([name, m]) => {
    const at = `methods.${name}.do`;
    const build = (action: FlowAction, key: string, where: string, outcomes: string[]) => {
      const crew = actionCrew({
        slug,
        file,
        flowName: flow.name,
        action,
        where,
        warn,
        loadFolder,
        outcomes,
      });
      if (crew) crews[key] = crew;
    };
    const emit = m.human_feedback?.emit ?? m.emit ?? [];
    if (m.do.call === "each")
      for (const [i, step] of m.do.do.entries())
        build(step.action, crewKey(name, step.name), `${at}.do[${i}].action`, []);
    else build(m.do, crewKey(name), at, m.router && !m.human_feedback ? emit : []);
    const feedback = m.human_feedback;
    if (feedback?.review !== undefined)
      reviews[name] = parseOrThrow(
        ReviewBlockSchema,
        feedback.review,
        file,
        `methods.${name}.human_feedback.review`,
      );
    return {
      name,
      description: m.description ?? null,
      start: (m.start ?? false) as boolean | FlowCondition,
      listen: (m.listen ?? null) as FlowCondition | null,
      router: m.router,
      emit,
      feedback: feedback
        ? {
            message: feedback.message,
            emit: feedback.emit ?? [],
            default_outcome: feedback.default_outcome ?? null,
            llm: typeof feedback.llm === "string" ? feedback.llm : null,
          }
        : null,
      do: m.do,
    };
  });
  const state = flowState(flow, file, warn);
  const specs = stateInputs(state);
  const plan: FlowPlan = {
    name: flow.name,
    file,
    state,
    max_method_calls: flow.config.max_method_calls,
    methods,
    crews,
  };
  return {
    slug,
    name: flow.name,
    description: flow.description ?? null,
    agents: [],
    tasks: methods.map((m) => methodTask(m, reviews[m.name])),
    inputs: specs.map((s) => s.name),
    input_specs: specs,
    source: [file],
    flow: plan,
  };
}

/** A method as the run lists it: a task whose "agent" is what it calls. */
function methodTask(m: FlowMethod, review: TaskDef["review"]): TaskDef {
  const call = m.do.call;
  return {
    id: m.name,
    name: m.name,
    description: m.description ?? `${call} step of the flow`,
    expected_output: m.emit.length ? `One of: ${m.emit.join(", ")}` : "",
    agent: call,
    human_input: m.feedback !== null,
    ...(review ? { review } : {}),
  };
}

function actionCrew({
  slug,
  file,
  flowName,
  action,
  where,
  warn,
  loadFolder,
  outcomes,
}: {
  slug: string;
  file: string;
  flowName: string;
  action: FlowAction;
  where: string;
  warn: Warn;
  loadFolder: LoadFolder;
  /** A router's outcomes, which its agent is told to answer with. */
  outcomes: string[];
}): CrewDef | undefined {
  const method = where.split(".")[1] ?? "";
  if (action.call === "crew" && action.with) {
    const { inputs: _values, manager_agent, ...crew } = action.with;
    const tasks = Object.fromEntries(
      crew.tasks.map((t, i) => {
        const { name, ...task } = t;
        return [name ?? `task_${i + 1}`, task];
      }),
    );
    if (manager_agent != null)
      warn(
        file,
        `${where}.with.manager_agent`,
        "an inline crew's manager_agent is not run yet: the crew runs its tasks in order",
      );
    return crewFromDoc({
      slug,
      doc: { ...crew, tasks },
      file,
      at: `${where}.with.`,
      name: `${flowName} · ${method}`,
      warn,
    });
  }
  if (action.call === "crew" && action.from_declaration) {
    const base = path.dirname(file);
    const target = path.resolve(base, action.from_declaration);
    if (path.relative(base, target).startsWith("..") || target === base)
      throw new LoadError(
        file,
        `${where}.from_declaration`,
        "crew declaration path must be within the flow definition directory (and not the flow's own folder)",
      );
    const folder =
      fs.existsSync(target) && fs.statSync(target).isDirectory() ? target : path.dirname(target);
    return loadFolder(slug, folder, warn);
  }
  if (action.call === "agent") {
    const { input: _input, response_format, ...agent } = action.with;
    if (response_format)
      warn(
        file,
        `${where}.with.response_format`,
        "a Python response_format is not read: the agent answers in text",
      );
    // CrewAI's Agent.kickoff(input): one agent, one piece of work; a router's agent is told the
    // outcomes it chooses among, which its answer is matched to.
    return crewFromDoc({
      slug,
      doc: {
        agents: { agent },
        tasks: {
          [method]: {
            description: "{input}",
            expected_output: outcomes.length
              ? `Exactly one of: ${outcomes.join(", ")}`
              : "A direct answer.",
            agent: "agent",
          },
        },
      },
      file,
      at: `${where}.with.`,
      name: `${flowName} · ${method}`,
      warn: (f, key, message) =>
        warn(f, key.replace(`${where}.with.agents.agent.`, `${where}.with.`), message),
    });
  }
  return undefined;
}

function flowState(flow: FlowFile, file: string, warn: Warn): FlowPlan["state"] {
  const state = flow.state;
  const defaults = state?.default ?? {};
  if (!state || state.type === "dict") return { kind: "dict", schema: null, defaults };
  // Patterns the linear-time engine cannot run go unchecked, said at load (never a refused flow).
  const checked = (schema: Record<string, unknown>) => {
    for (const message of skippedPatternWarnings(schema)) warn(file, "state.json_schema", message);
    return schema;
  };
  if (state.type === "json_schema")
    return { kind: "json_schema", schema: checked(state.json_schema), defaults };
  if (state.type === "pydantic" && state.json_schema)
    return { kind: "pydantic", schema: checked(state.json_schema), defaults };
  warn(
    file,
    "state",
    `a ${state.type} state${"ref" in state && state.ref ? ` (${state.ref})` : ""} names Python Crewdeck cannot read: give it a json_schema to have inputs typed and checked; meanwhile it is a dict`,
  );
  return { kind: state.type, schema: null, defaults };
}

const TYPES: Record<string, InputSpec["type"]> = {
  string: "string",
  integer: "number",
  number: "number",
  boolean: "boolean",
  array: "json",
  object: "json",
};

/** The state's fields as kickoff inputs: required unless it has a default. */
function stateInputs(state: FlowPlan["state"]): InputSpec[] {
  const props = isObject(state.schema?.properties) ? state.schema.properties : {};
  const required = Array.isArray(state.schema?.required) ? state.schema.required : [];
  const names = [...new Set([...Object.keys(props), ...Object.keys(state.defaults)])];
  return names.map((name): InputSpec => {
    const prop = isObject(props[name]) ? props[name] : {};
    const fallback = state.defaults[name] ?? prop.default;
    const options = Array.isArray(prop.enum) ? prop.enum.map(String) : undefined;
    const type = options ? "enum" : (TYPES[String(prop.type)] ?? jsonType(fallback) ?? "string");
    const scalar =
      typeof fallback === "string" || typeof fallback === "number" || typeof fallback === "boolean";
    return {
      name,
      type,
      title: typeof prop.title === "string" ? prop.title : titleFromName(name),
      description: typeof prop.description === "string" ? prop.description : null,
      required: required.includes(name) && fallback === undefined,
      ...(scalar
        ? { default: fallback }
        : fallback !== undefined
          ? { default: JSON.stringify(fallback) }
          : {}),
      ...(options ? { options } : {}),
      declared: true,
    };
  });
}

function jsonType(value: unknown): InputSpec["type"] | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "string") return "string";
  return "json";
}
