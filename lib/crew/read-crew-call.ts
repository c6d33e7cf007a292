import { LlmFieldSchema } from "./agent-llm";
import type { CrewPy } from "./crew-py-model";
import {
  AGENTS_CONFIG,
  configKey,
  follow,
  INSTEAD,
  int,
  llmValue,
  type Scope,
  TASKS_CONFIG,
} from "./crew-py-values";
import {
  calleeName,
  keywordArgs,
  lineOf,
  literalValue,
  namedChildren,
  type PyNode,
  selfMember,
} from "./python-syntax";

// The Crew(...) call of crew.py's @crew method (process, manager, rate limit, and what Crewdeck
// does not run), and a script's module-level `x = Agent(...)` / `y = Task(...)` assignments.

export function readCrew(out: CrewPy, call: PyNode, scope: Scope) {
  const args = keywordArgs(call);
  const note = (field: string, node: PyNode, message: string) =>
    out.notes.push({ key: `Crew(${field}=…)`, line: lineOf(node), message });
  const process = /^Process\.(sequential|hierarchical)$/.exec(args.get("process")?.text ?? "")?.[1];
  if (process === "sequential" || process === "hierarchical") out.crew.process = process;
  const managerLlm = args.get("manager_llm");
  const llm = managerLlm ? LlmFieldSchema.safeParse(llmValue(managerLlm, scope)) : undefined;
  if (llm?.success) out.crew.manager_llm = llm.data;
  const rpm = int(args.get("max_rpm"));
  if (rpm !== undefined) out.crew.max_rpm = rpm;
  const manager = args.get("manager_agent");
  if (manager) {
    const member = selfMember(manager);
    const made = follow(manager, scope);
    const key =
      member && manager.type === "call"
        ? (out.agents.get(member) ?? member)
        : made.type === "call"
          ? (configKey(made, AGENTS_CONFIG) ??
            [...out.agents.entries()].find(([m]) => m === selfMember(made))?.[1])
          : undefined;
    if (key) out.crew.manager_agent = key;
    else
      note(
        "manager_agent",
        manager,
        `the manager agent ${manager.text} is built in Python without an agents.yaml entry: add it to agents.yaml and pass manager_agent=self.<its @agent method>()`,
      );
  }
  for (const field of ["memory", "knowledge_sources", "planning", "embedder"] as const) {
    const node = args.get(field);
    if (node && literalValue(node) !== false && literalValue(node) !== null)
      note(field, node, INSTEAD[field]);
  }
}

// A script instead of a @CrewBase class (`researcher = Agent(config=agents_config["researcher"])`,
// `research = Task(description=tasks_config["research"]["description"], agent=researcher)`).
export function readAssignments(out: CrewPy, module: PyNode) {
  for (const stmt of namedChildren(module)) {
    const expr = stmt.type === "expression_statement" ? namedChildren(stmt)[0] : undefined;
    const right = expr?.type === "assignment" ? expr.childForFieldName("right") : undefined;
    const name = expr?.childForFieldName("left")?.text ?? "";
    if (right?.type !== "call") continue;
    if (calleeName(right) === "Agent") {
      const key = configKey(right, AGENTS_CONFIG);
      if (key && !out.agents.has(name)) out.agents.set(name, key);
    } else if (calleeName(right) === "Task") {
      const key = configKey(right, TASKS_CONFIG);
      const agent = keywordArgs(right).get("agent");
      if (key && agent?.type === "identifier" && !out.tasks.has(key))
        out.tasks.set(key, { kind: "agent", method: agent.text, taskMethod: name });
    }
  }
}
