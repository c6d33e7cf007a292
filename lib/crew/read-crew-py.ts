import { LlmFieldSchema } from "./agent-llm";
import type { AgentSettings, CrewPy, TaskSettings } from "./crew-py-model";
import {
  AGENTS_CONFIG,
  bool,
  configKey,
  follow,
  INSTEAD,
  int,
  llmValue,
  returnedCall,
  type Scope,
  TASKS_CONFIG,
  toolList,
} from "./crew-py-values";
import {
  calleeName,
  descendants,
  keywordArgs,
  lineOf,
  literalValue,
  namedChildren,
  type PyNode,
  parsePython,
  selfMember,
  stringValue,
} from "./python-syntax";
import { readAssignments, readCrew } from "./read-crew-call";
import { readPydanticModels } from "./read-pydantic";

export type { CrewPy } from "./crew-py-model";

// Reads a CrewAI project's crew.py with a Python parser (tree-sitter; Python is never run) for
// what the YAML leaves to it: which agent does each task, and the keyword arguments of each
// Agent(...), Task(...) and Crew(...) call — which win over the YAML, as in CrewAI (a keyword
// argument beside `config=` overrides it: crewai/utilities/config.py process_config). What
// Crewdeck does not run (Python tools and guardrails, memory, knowledge) is noted with its line.

const decoratorNames = (decorated: PyNode) =>
  namedChildren(decorated)
    .filter((d) => d.type === "decorator")
    .map((d) => d.text.replace(/^@\s*/, "").replace(/\(.*$/s, "").split(".").pop() ?? "");

function enclosingClass(node: PyNode): PyNode | undefined {
  for (let p = node.parent; p; p = p.parent) if (p.type === "class_definition") return p;
  return undefined;
}

/** The Agent(...) or Task(...) call a method makes (a subclass such as ReflectionTask too). */
function madeCall(def: PyNode, suffix: string): PyNode | undefined {
  return descendants(def, "call").find((c) => calleeName(c).endsWith(suffix)) ?? returnedCall(def);
}

/** A @CrewBase class: its name, and the YAML files it reads (its own, or a base class's here). */
export type CrewClass = { name: string; agents_config?: string; tasks_config?: string };

export function crewClasses(source: string): CrewClass[] {
  const module = parsePython(source);
  const classes = new Map<string, { node: PyNode; crewBase: boolean }>();
  for (const c of descendants(module, "class_definition")) {
    const name = c.childForFieldName("name")?.text ?? "";
    const decorated = c.parent?.type === "decorated_definition" ? c.parent : undefined;
    classes.set(name, {
      node: c,
      crewBase: !!decorated && decoratorNames(decorated).includes("CrewBase"),
    });
  }
  const attribute = (name: string, attr: string, seen = new Set<string>()): string | undefined => {
    const c = classes.get(name);
    if (!c || seen.has(name)) return undefined;
    seen.add(name);
    const own = descendants(c.node.childForFieldName("body") ?? c.node, "assignment").find(
      // Each reading of a node is a new object: `equals` compares the nodes themselves.
      (a) => a.childForFieldName("left")?.text === attr && !!enclosingClass(a)?.equals(c.node),
    );
    const value = stringValue(own?.childForFieldName("right") ?? undefined);
    if (value !== undefined) return value;
    const bases = namedChildren(c.node.childForFieldName("superclasses"));
    for (const b of bases) {
      const inherited = attribute(b.text, attr, seen);
      if (inherited !== undefined) return inherited;
    }
    return undefined;
  };
  return [...classes.entries()]
    .filter(([, c]) => c.crewBase)
    .map(([name]) => ({
      name,
      agents_config: attribute(name, "agents_config"),
      tasks_config: attribute(name, "tasks_config"),
    }));
}

/** What crew.py says; with `className`, only that @CrewBase class's methods (one crew each). */
export function readCrewPy(source: string, className?: string): CrewPy {
  const module = parsePython(source);
  const out: CrewPy = {
    agents: new Map(),
    tasks: new Map(),
    agentTools: new Map(),
    agentMcps: new Map(),
    taskModels: new Map(),
    models: readPydanticModels(source),
    taskFlags: new Map(),
    agentSettings: new Map(),
    taskSettings: new Map(),
    taskTools: new Map(),
    crew: {},
    notes: [],
  };
  const decorated = descendants(module, "decorated_definition")
    .filter((d) => !className || enclosingClass(d)?.childForFieldName("name")?.text === className)
    .map((d) => ({ d, kinds: decoratorNames(d), def: d.childForFieldName("definition") }));
  const scopeOf = (def: PyNode): Scope => ({ method: def, klass: enclosingClass(def), module });
  for (const { kinds, def } of decorated) {
    if (def?.type !== "function_definition") continue;
    const method = def.childForFieldName("name")?.text ?? "";
    if (kinds.includes("agent")) {
      const call = madeCall(def, "Agent");
      if (call) readAgent(out, method, call, scopeOf(def));
    } else if (kinds.includes("task")) {
      const call = madeCall(def, "Task");
      if (call) readTask(out, method, call, scopeOf(def));
    }
  }
  for (const { kinds, def } of decorated) {
    if (def?.type !== "function_definition" || !kinds.includes("crew")) continue;
    const call = descendants(def, "call").find((c) => calleeName(c) === "Crew");
    if (call) readCrew(out, call, scopeOf(def));
  }
  readAssignments(out, module);
  // MCPServerAdapter's servers, declared in Python on the class: not read (yet), so said.
  for (const a of descendants(module, "assignment"))
    if (a.childForFieldName("left")?.text === "mcp_server_params" && enclosingClass(a))
      out.notes.push({
        key: "mcp_server_params",
        line: lineOf(a),
        message:
          "MCP servers declared in Python are not read: declare them in config/mcp_servers.yaml (url, or command and args) and list them under the agent's mcps:",
      });
  return out;
}

const AGENT_TOOLS_GO =
  "list the agent's tools in agents.yaml (built-in tools, or an MCP server under mcps:)";
const TASK_TOOLS_GO = "give the task's agent its tools in agents.yaml";

/**
 * A call's `tools=`: its names kept under `key`, or, when Python builds the list, a note that
 * says where the tools go instead.
 */
function readTools(
  tools: PyNode | undefined,
  scope: Scope,
  into: Map<string, string[]>,
  key: string,
  note: (field: string, node: PyNode, message: string) => void,
  instead: string,
) {
  if (!tools) return;
  const names = toolList(tools, scope);
  if (names) into.set(key, names);
  else
    note(
      "tools",
      tools,
      `tools=${tools.text} is built in Python, which Crewdeck does not run: ${instead}`,
    );
}

function readAgent(out: CrewPy, method: string, call: PyNode, scope: Scope) {
  const args = keywordArgs(call);
  const key = configKey(call, AGENTS_CONFIG) ?? method;
  out.agents.set(method, key);
  const note = (field: string, node: PyNode, message: string) =>
    out.notes.push({ key: `${key}.${field}`, line: lineOf(node), message });
  readTools(args.get("tools"), scope, out.agentTools, key, note, AGENT_TOOLS_GO);
  const mcps = args.get("mcps");
  const list = mcps ? follow(mcps, scope) : undefined;
  if (list?.type === "list") {
    const entries = namedChildren(list).filter((c) => c.type !== "comment");
    const refs = entries.flatMap((e) => stringValue(e) ?? []);
    out.agentMcps.set(key, { refs, other: entries.length - refs.length });
  }
  const settings: AgentSettings = {};
  const llm = args.get("llm");
  if (llm) {
    const value = LlmFieldSchema.safeParse(llmValue(llm, scope));
    if (value.success) settings.llm = value.data;
    else
      note(
        "llm",
        llm,
        `llm=${llm.text} cannot be read without running Python: give the agent's llm in agents.yaml (a model name, or {model, base_url, …})`,
      );
  }
  const delegation = bool(args.get("allow_delegation"));
  if (delegation !== undefined) settings.allow_delegation = delegation;
  for (const field of ["max_iter", "max_rpm"] as const) {
    const n = int(args.get(field));
    if (n !== undefined) settings[field] = n;
  }
  if (Object.keys(settings).length) out.agentSettings.set(key, settings);
  for (const field of ["memory", "knowledge_sources", "embedder"] as const) {
    const node = args.get(field);
    if (node && literalValue(node) !== false && literalValue(node) !== null)
      note(field, node, INSTEAD[field]);
  }
}

function readTask(out: CrewPy, method: string, call: PyNode, scope: Scope) {
  const args = keywordArgs(call);
  const key = configKey(call, TASKS_CONFIG) ?? method;
  const note = (field: string, node: PyNode, message: string) =>
    out.notes.push({ key: `${key}.${field}`, line: lineOf(node), message });
  const flags: { async_execution?: boolean; human_input?: boolean } = {};
  for (const name of ["async_execution", "human_input"] as const) {
    const value = bool(args.get(name));
    if (value !== undefined) flags[name] = value;
  }
  if (Object.keys(flags).length) out.taskFlags.set(key, flags);
  const model = args.get("output_pydantic") ?? args.get("output_json");
  if (model?.type === "identifier" || model?.type === "attribute")
    out.taskModels.set(key, model.text.split(".").pop() ?? model.text);
  const agent = args.get("agent");
  const member = selfMember(agent);
  out.tasks.set(
    key,
    !agent
      ? { kind: "none", taskMethod: method }
      : member && agent.type === "call" && !agent.childForFieldName("arguments")?.namedChildCount
        ? { kind: "agent", method: member, taskMethod: method }
        : { kind: "unreadable", expr: agent.text, taskMethod: method },
  );
  const settings: TaskSettings = {};
  const file = stringValue(args.get("output_file"));
  if (file !== undefined) settings.output_file = file;
  const guardrail = args.get("guardrail");
  if (guardrail) {
    const rule = stringValue(follow(guardrail, scope));
    if (rule !== undefined) settings.guardrail = rule;
    else
      note(
        "guardrail",
        guardrail,
        `guardrail=${guardrail.text} is a Python function, which Crewdeck does not run: write the rule as a string guardrail in tasks.yaml (guardrail: "The output must …"), which the agent's model checks`,
      );
  }
  const guardrails = args.get("guardrails");
  const rules = guardrails ? follow(guardrails, scope) : undefined;
  if (rules?.type === "list") {
    const items = namedChildren(rules).filter((c) => c.type !== "comment");
    settings.guardrails = items.flatMap((i) => stringValue(follow(i, scope)) ?? []);
    for (const i of items.filter((i) => stringValue(follow(i, scope)) === undefined))
      note(
        "guardrails",
        i,
        `${i.text} is a Python function, which Crewdeck does not run: write it as a string guardrail`,
      );
  }
  if (Object.keys(settings).length) out.taskSettings.set(key, settings);
  readTools(args.get("tools"), scope, out.taskTools, key, note, TASK_TOOLS_GO);
}
