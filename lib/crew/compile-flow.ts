import fs from "node:fs";
import path from "node:path";
import { crewFromDoc } from "./crew-doc";
import { crewKey, type FlowCondition, type FlowMethod, type FlowPlan } from "./flow-plan";
import type { FlowAction, FlowFile } from "./flow-schema";
import { flowState, stateInputs } from "./flow-state-inputs";
import { LoadError, parseOrThrow, type Warn } from "./read-files";
import { ReviewBlockSchema } from "./review-policy";
import type { CrewDef, TaskDef } from "./schema";

// A flow declaration made ready to run: each crew its methods call is built now (an inline
// crew, an agent, a crew declared in another folder), the state's inputs are typed for
// GET /inputs and the kickoff form, and the flow becomes a CrewDef whose tasks are its methods,
// so runs, reviews, the inbox and the dashboard treat a flow's methods as they treat tasks.

/** Reads a crew folder (load-crews.ts): how `from_declaration` reaches a project's crews. */
export type LoadFolder = (slug: string, folder: string, warn: Warn) => CrewDef;

type FlowContext = {
  slug: string;
  file: string;
  flowName: string;
  warn: Warn;
  loadFolder: LoadFolder;
};
type MethodEntry = FlowFile["methods"][string];

/**
 * The crews a method calls, by key (`method`, or `method/step` inside `each`); a router that is
 * not a reviewer's tells its agent the outcomes it chooses among.
 */
function methodCrews(ctx: FlowContext, name: string, m: MethodEntry, emit: string[]) {
  const at = `methods.${name}.do`;
  const steps: [FlowAction, string, string, string[]][] =
    m.do.call === "each"
      ? m.do.do.map((step, i) => [
          step.action,
          crewKey(name, step.name),
          `${at}.do[${i}].action`,
          [],
        ])
      : [[m.do, crewKey(name), at, m.router && !m.human_feedback ? emit : []]];
  const crews: [string, CrewDef][] = [];
  for (const [action, key, where, outcomes] of steps) {
    const crew = actionCrew({ ...ctx, action, where, outcomes });
    if (crew) crews.push([key, crew]);
  }
  return crews;
}

/** A method as the runner reads it. */
function methodPlan(name: string, m: MethodEntry, emit: string[]): FlowMethod {
  const feedback = m.human_feedback;
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
}

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
  const ctx: FlowContext = { slug, file, flowName: flow.name, warn, loadFolder };
  const crews: Record<string, CrewDef> = {};
  const reviews: Record<string, TaskDef["review"]> = {};
  const methods: FlowMethod[] = Object.entries(flow.methods).map(([name, m]) => {
    const emit = m.human_feedback?.emit ?? m.emit ?? [];
    for (const [key, crew] of methodCrews(ctx, name, m, emit)) crews[key] = crew;
    const review = m.human_feedback?.review;
    if (review !== undefined)
      reviews[name] = parseOrThrow(
        ReviewBlockSchema,
        review,
        file,
        `methods.${name}.human_feedback.review`,
      );
    return methodPlan(name, m, emit);
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

type ActionAt = FlowContext & {
  where: string;
  /** A router's outcomes, which its agent is told to answer with. */
  outcomes: string[];
};
type CrewCall = Extract<FlowAction, { call: "crew" }>;
type AgentCall = Extract<FlowAction, { call: "agent" }>;

/** `call: crew` with the crew written inline; its tasks named in order when unnamed. */
function inlineCrew(
  { slug, file, flowName, where, warn }: ActionAt,
  withCrew: NonNullable<CrewCall["with"]>,
) {
  const method = where.split(".")[1] ?? "";
  const { inputs: _values, manager_agent, ...crew } = withCrew;
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

/** `call: crew` naming a crew folder (or a file in it) under the flow's own folder. */
function declaredCrew({ slug, file, where, warn, loadFolder }: ActionAt, declaration: string) {
  const base = path.dirname(file);
  const target = path.resolve(base, declaration);
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

/**
 * CrewAI's Agent.kickoff(input): one agent, one piece of work; a router's agent is told the
 * outcomes it chooses among, which its answer is matched to.
 */
function agentCrew(
  { slug, file, flowName, where, warn, outcomes }: ActionAt,
  withAgent: AgentCall["with"],
) {
  const method = where.split(".")[1] ?? "";
  const { input: _input, response_format, ...agent } = withAgent;
  if (response_format)
    warn(
      file,
      `${where}.with.response_format`,
      "a Python response_format is not read: the agent answers in text",
    );
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

function actionCrew({ action, ...at }: ActionAt & { action: FlowAction }): CrewDef | undefined {
  if (action.call === "crew" && action.with) return inlineCrew(at, action.with);
  if (action.call === "crew" && action.from_declaration)
    return declaredCrew(at, action.from_declaration);
  if (action.call === "agent") return agentCrew(at, action.with);
  return undefined;
}
