import type { CrewPy } from "./read-crew-py";
import { LoadError } from "./read-files";

// Most CrewAI projects name each task's agent in crew.py, not in tasks.yaml. crew.py's
// `agent=self.x()` wins over tasks.yaml's `agent:`, as a keyword argument beside `config=` does in
// CrewAI; a task with neither gets the agent of a crew of one agent; else the load fails saying
// exactly what to add, and where.

export type TaskAgentSources = {
  agentIds: string[];
  /** crew.py as read (read-crew-py.ts), when the layout has one. */
  crewPy?: { file: string; shown: string; read: CrewPy };
  /** Where a task's `agent` belongs: the file, the key, and how a person finds it there. */
  at: (taskId: string) => { file: string; key: string; hint: string };
};

/** Each task's agent id; throws a LoadError for the first task whose agent cannot be known. */
export function assignTaskAgents(
  tasks: Array<{ id: string; agent?: string | undefined; description?: string }>,
  src: TaskAgentSources,
): Map<string, string> {
  const assigned = new Map<string, string>();
  for (const task of tasks) {
    const ref = src.crewPy?.read.tasks.get(task.id);
    const agent =
      task.agent && ref?.kind !== "agent"
        ? fromMethodName(task.agent, src)
        : inferred(task.id, src, task.description);
    assigned.set(task.id, agent);
  }
  return assigned;
}

// tasks.yaml's `agent:` names an @agent method in CrewAI; usually also the agents.yaml key.
function fromMethodName(name: string, src: TaskAgentSources) {
  if (src.agentIds.includes(name)) return name;
  const key = src.crewPy?.read.agents.get(name);
  return key && src.agentIds.includes(key) ? key : name;
}

function inferred(taskId: string, src: TaskAgentSources, description = ""): string {
  const ref = src.crewPy?.read.tasks.get(taskId);
  const { file, key, hint } = src.at(taskId);
  const choices = src.agentIds.join(", ");
  if (ref?.kind === "agent") {
    const agentKey = src.crewPy?.read.agents.get(ref.method) ?? ref.method;
    if (src.agentIds.includes(agentKey)) return agentKey;
    throw new LoadError(
      src.crewPy?.file ?? file,
      `${ref.taskMethod}.agent`,
      `task '${taskId}': ${src.crewPy?.shown} sets agent=self.${ref.method}(), which is not an agent of this crew (agents: ${choices})`,
    );
  }
  if (src.agentIds.length === 1 && src.agentIds[0]) return src.agentIds[0];
  const why = !src.crewPy
    ? ""
    : !ref
      ? ` (${src.crewPy.shown} has no @task method with config=self.tasks_config['${taskId}'])`
      : ref.kind === "unreadable"
        ? ` (${src.crewPy.shown}'s ${ref.taskMethod}() sets agent=${ref.expr}, which Crewdeck cannot follow: it reads crew.py without running it)`
        : ` (${src.crewPy.shown}'s ${ref.taskMethod}() sets no agent)`;
  const orCrewPy = src.crewPy
    ? `, or set agent=self.<agent>() in its @task method in ${src.crewPy.shown}`
    : "";
  throw new LoadError(
    file,
    key,
    // CrewAI's own reason first (crew.py: missing_agent_in_task), then how to fix it here.
    `Sequential process error: Agent is missing in the task with the following description: ${(description.trim().split("\n")[0] ?? "").slice(0, 120).replace(/[.\s]+$/, "")}. Task '${taskId}' has no agent${why}: add ${hint.replace("<agents>", `<one of ${choices}>`)}${orCrewPy}`,
  );
}
