import type { LlmParams } from "@/lib/llm/model-ref";
import type { AgentDef, CrewDef, CrewProcess, TaskDef } from "./schema";

// How a crew's tasks are handed out, as CrewAI does it:
// - sequential: each task is run by its own `agent:`;
// - hierarchical: a manager runs every task, handing it to the agent it chooses (only the task's
//   own `agent:` when it names one) through the delegation tools, and answers with their work.
// It is `manager_agent` (one of the crew's agents) or, with `manager_llm`, a manager made for it.

export type CrewSettings = {
  process?: CrewProcess;
  manager_llm?: string;
  manager_llm_params?: LlmParams;
  manager_agent?: string;
  max_rpm?: number;
};

export class ProcessError extends Error {
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(message);
  }
}

type LoadedTask = Omit<TaskDef, "agent"> & { agent?: string };

const MANAGER_ID = "crew_manager";

function madeManager(llm: string | undefined, llm_params: LlmParams | undefined): AgentDef {
  return {
    id: MANAGER_ID,
    role: "Crew Manager",
    goal: "Get each task done as well as possible by the right member of the team.",
    backstory:
      "You lead a team of specialists. You do not do the work yourself: you give each task to the coworker best suited to it, with the context they need, check what they hand back, and answer with their work.",
    llm,
    ...(llm_params ? { llm_params } : {}),
    tools: [],
    apps: [],
  };
}

/** The crew's process, its manager and who runs each task; a ProcessError says what to fix. */
export function resolveProcess(
  settings: CrewSettings,
  agents: AgentDef[],
  tasks: LoadedTask[],
  warn: (key: string, message: string) => void,
): Pick<CrewDef, "process" | "manager" | "max_rpm" | "tasks"> {
  const ids = agents.map((a) => a.id);
  const named = (key: string, id: string) => {
    if (!ids.includes(id))
      throw new ProcessError(
        key,
        `'${id}' is not an agent of this crew (agents: ${ids.join(", ")})`,
      );
  };
  const process = settings.process ?? "sequential";
  if (process === "sequential") {
    if (settings.manager_agent || settings.manager_llm)
      warn("process", "a manager is used only with `process: hierarchical`; ignored");
    return {
      process,
      max_rpm: settings.max_rpm,
      tasks: tasks.map((t) => {
        if (!t.agent)
          throw new ProcessError(
            `${t.id}.agent`,
            `task '${t.id}' has no agent: add \`agent: <one of ${ids.join(", ")}>\` under ${t.id}`,
          );
        named(`${t.id}.agent`, t.agent);
        return { ...t, agent: t.agent };
      }),
    };
  }
  if (settings.manager_agent) named("manager_agent", settings.manager_agent);
  const chosen = settings.manager_agent
    ? agents.find((a) => a.id === settings.manager_agent)
    : undefined;
  const manager = chosen ?? madeManager(settings.manager_llm, settings.manager_llm_params);
  if (!settings.manager_agent && !settings.manager_llm)
    warn(
      "manager_llm",
      "hierarchical without manager_llm or manager_agent: the manager uses DEFAULT_LLM",
    );
  if (settings.manager_agent && settings.manager_llm)
    warn("manager_llm", "manager_agent is given: its own llm is used; manager_llm ignored");
  if (agents.length < 2 && !settings.manager_agent)
    warn("process", "a hierarchical crew with one agent: the manager always hands work to it");
  return {
    process,
    manager,
    max_rpm: settings.max_rpm,
    tasks: tasks.map((t) => {
      if (t.agent) {
        named(`${t.id}.agent`, t.agent);
        if (t.agent === manager.id)
          throw new ProcessError(`${t.id}.agent`, `the manager cannot be a task's own agent`);
      }
      const { agent, ...rest } = t;
      return { ...rest, agent: manager.id, ...(agent ? { delegate_to: agent } : {}) };
    }),
  };
}

/**
 * CrewAI's rules for `async_execution`: consecutive async tasks run side by side and the next task
 * that is not async waits for them, so a task cannot take an async neighbour of its own group as
 * context (it would race it), and the crew cannot end on two or more async tasks (nothing joins
 * them). Async tasks may each wait for review: their reviews are open side by side.
 */
export function checkAsyncTasks(tasks: TaskDef[]) {
  tasks.forEach((task, i) => {
    if (!task.async_execution) return;
    let start = i;
    while (start > 0 && tasks[start - 1]?.async_execution) start--;
    for (const ref of task.context ?? []) {
      const at = tasks.findIndex((t) => t.id === ref);
      if (at >= start && at < i)
        throw new ProcessError(
          `${task.id}.context`,
          `'${ref}' runs in parallel with '${task.id}' (both async_execution): use it as context of the task that follows them`,
        );
    }
  });
  const trailing = tasks.length - 1 - tasks.findLastIndex((t) => !t.async_execution);
  if (trailing > 1)
    throw new ProcessError(
      `${tasks.at(-1)?.id}.async_execution`,
      `the crew ends with ${trailing} async tasks: end with at most one, or add a task after them that uses their output`,
    );
}
