import type { VariantChanges } from "@/lib/contract/datasets";
import { readAgentLlm } from "@/lib/crew/agent-llm";
import { ProcessError, resolveProcess } from "@/lib/crew/process";
import type { AgentDef, CrewDef, TaskDef } from "@/lib/crew/schema";
import { catalogEntry, TOOL_NAMES } from "@/lib/crew/tool-catalog";
import { errors } from "@/lib/errors";

// A variant is data laid over the crew's definition: changed agents (model, role, goal,
// backstory, tools), tasks (description, expected output) or process. The crew's files are
// never touched; a name the crew does not have is a 422 that lists the names it has.

type Problem = { path: string; message: string };

function changedAgent(agent: AgentDef, c: NonNullable<VariantChanges["agents"]>[string]) {
  const next: AgentDef = { ...agent };
  if (c.llm !== undefined) {
    next.llm = readAgentLlm(c.llm).llm;
    delete next.llm_params;
  }
  if (c.role !== undefined) next.role = c.role;
  if (c.goal !== undefined) next.goal = c.goal;
  if (c.backstory !== undefined) next.backstory = c.backstory;
  // Tools by their own names, as the loader resolves CrewAI's aliases.
  if (c.tools !== undefined) next.tools = c.tools.map((t) => catalogEntry(t)?.name ?? t);
  return next;
}

/**
 * An agent's tools in a variant: each a built-in tool the crew's file already gives that same
 * agent. A variant is made by whoever may start runs, not by the crew's author: adding a tool
 * would grant what the author did not, and moving one from another agent would escape what the
 * author set on that agent alone (`requires_approval`, `max_tool_calls`). So tools are kept or
 * dropped; to compare with a tool added, add it in the crew's file and drop it in a variant.
 */
function toolProblems(agent: AgentDef | undefined, id: string, tools: string[]): Problem[] {
  const problems: Problem[] = [];
  tools.forEach((tool, j) => {
    const path = `changes.agents.${id}.tools.${j}`;
    const entry = catalogEntry(tool);
    if (!entry)
      problems.push({ path, message: `unknown tool '${tool}' (tools: ${TOOL_NAMES.join(", ")})` });
    else if (agent && !agent.tools.includes(entry.name))
      problems.push({
        path,
        message: `the crew does not give agent '${id}' the tool '${entry.name}' (its tools: ${agent.tools.join(", ") || "none"}): a variant may only keep or drop an agent's own tools`,
      });
  });
  return problems;
}

/** The crew with the changes laid over it; a 422 naming each change that does not fit. */
export function applyChanges(crew: CrewDef, changes: VariantChanges): CrewDef {
  const problems: Problem[] = [];
  const agentIds = crew.agents.map((a) => a.id);
  const taskIds = crew.tasks.map((t) => t.id);
  if (crew.flow && (changes.agents || changes.tasks || changes.process))
    problems.push({
      path: "changes",
      message:
        "a flow's variants cannot change its agents, tasks or process yet: use its crews' own variants",
    });
  for (const id of Object.keys(changes.agents ?? {}))
    if (!agentIds.includes(id))
      problems.push({
        path: `changes.agents.${id}`,
        message: `no agent '${id}' (agents: ${agentIds.join(", ")})`,
      });
  for (const id of Object.keys(changes.tasks ?? {}))
    if (!taskIds.includes(id))
      problems.push({
        path: `changes.tasks.${id}`,
        message: `no task '${id}' (tasks: ${taskIds.join(", ")})`,
      });
  for (const [id, c] of Object.entries(changes.agents ?? {})) {
    const error = c.llm !== undefined ? readAgentLlm(c.llm).error : undefined;
    if (error) problems.push({ path: `changes.agents.${id}.llm`, message: error });
  }
  const manager = changes.manager_llm && readAgentLlm(changes.manager_llm).error;
  if (manager) problems.push({ path: "changes.manager_llm", message: manager });
  for (const [id, c] of Object.entries(changes.agents ?? {}))
    problems.push(
      ...toolProblems(
        crew.agents.find((a) => a.id === id),
        id,
        c.tools ?? [],
      ),
    );
  if (problems.length) throw unfit(problems);

  const agents = crew.agents.map((a) => {
    const c = changes.agents?.[a.id];
    return c ? changedAgent(a, c) : a;
  });
  let tasks: TaskDef[] = crew.tasks.map((t) => {
    const c = changes.tasks?.[t.id];
    return c ? { ...t, ...c } : t;
  });
  let next: CrewDef = { ...crew, agents, tasks };
  const process = changes.process ?? crew.process ?? "sequential";
  if (changes.process || changes.manager_llm) {
    // The tasks as written (each its own agent, or none under a manager), handed out again.
    const written = tasks.map(({ delegate_to, ...t }) => ({
      ...t,
      agent: crew.process === "hierarchical" ? delegate_to : t.agent,
    }));
    try {
      const resolved = resolveProcess(
        { process, manager_llm: changes.manager_llm ?? crew.manager?.llm },
        agents,
        written,
        () => {},
      );
      tasks = resolved.tasks;
      next = { ...next, ...resolved };
      if (process === "sequential") delete next.manager;
    } catch (err) {
      if (err instanceof ProcessError)
        throw unfit([{ path: `changes.process`, message: `${err.key}: ${err.message}` }]);
      throw err;
    }
  } else if (crew.manager) {
    // A changed agent that is also the manager changes the manager too.
    next.manager = agents.find((a) => a.id === crew.manager?.id) ?? crew.manager;
  }
  return next;
}

function unfit(problems: Problem[]) {
  return errors.unprocessable(
    `The variant does not fit the crew: ${problems.map((p) => `${p.path}: ${p.message}`).join("; ")}.`,
    { errors: problems },
  );
}

/**
 * The definition an experiment runs: nobody reviews an experiment's runs (reviewers' decisions
 * are what the scores are compared with), so tasks do not wait for review and tool calls do not
 * wait for approval. A flow keeps its human feedback steps, which wait as always.
 */
export function unattended(crew: CrewDef): CrewDef {
  if (crew.flow) return crew;
  return {
    ...crew,
    tasks: crew.tasks.map(({ review: _review, ...t }) => ({ ...t, human_input: false })),
    agents: crew.agents.map(({ requires_approval: _r, ...a }) => a),
    ...(crew.manager ? { manager: (({ requires_approval: _r, ...m }) => m)(crew.manager) } : {}),
  };
}
