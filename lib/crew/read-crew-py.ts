import { type JsonSchema, readPydanticModels } from "./read-pydantic";

// Reads a CrewAI project's crew.py AS TEXT (Python is never run) for the one thing the YAML
// often leaves out: which agent does each task. CrewAI's @CrewBase classes write it as
//   @agent def researcher(self) -> Agent: return Agent(config=self.agents_config['researcher'], …)
//   @task  def research_task(self) -> Task: return Task(config=self.tasks_config['research_task'],
//                                                       agent=self.researcher(), …)

/** What a @task method says about its agent. */
type TaskAgentRef =
  | { kind: "agent"; method: string; taskMethod: string } // agent=self.<method>()
  | { kind: "none"; taskMethod: string } // no agent= at all
  | { kind: "unreadable"; expr: string; taskMethod: string }; // agent=<anything else>

export type CrewPy = {
  /** @agent method name → the agents.yaml key its config names (the method name without one). */
  agents: Map<string, string>;
  /** tasks.yaml key (from config=self.tasks_config[…], else the method name) → its agent. */
  tasks: Map<string, TaskAgentRef>;
  /** agents.yaml key → the tools its Agent(...) call passes in Python (`tools=[…]`), as written. */
  agentTools: Map<string, string[]>;
  /**
   * agents.yaml key → its Agent(...) call's `mcps=[…]` (CrewAI's MCP DSL): the string entries,
   * and how many entries are something else (MCPServerStdio(…) and the like, not read).
   */
  agentMcps: Map<string, { refs: string[]; other: number }>;
  /** tasks.yaml key → the pydantic class its Task(...) asks for (output_pydantic=/output_json=). */
  taskModels: Map<string, string>;
  /** The module's pydantic models as JSON Schema, by class name. */
  models: Map<string, JsonSchema>;
  /** tasks.yaml key → flags its Task(...) call sets with a literal (async_execution=True, …). */
  taskFlags: Map<string, { async_execution?: boolean; human_input?: boolean }>;
  /** What the @crew method's Crew(...) call sets with literals: process, manager_llm, max_rpm. */
  crew: {
    process?: "sequential" | "hierarchical";
    manager_llm?: string;
    manager_agent?: string;
    max_rpm?: number;
  };
};

const OUTPUT_MODEL = /\boutput_(?:pydantic|json)\s*=\s*([A-Z]\w*)\b/;
const DECORATED_CREW = /@crew\b[^\n]*\n(?:[ \t]*@[^\n]*\n)*[ \t]*def[ \t]+\w+[ \t]*\(/;
const PROCESS = /\bprocess\s*=\s*Process\s*\.\s*(sequential|hierarchical)\b/;
const MANAGER_LLM = /\bmanager_llm\s*=\s*(['"])([^'"\n]+)\1/;
const MANAGER_AGENT = /\bmanager_agent\s*=\s*self\s*\.\s*(\w+)\s*\(\s*\)/;
const MAX_RPM = /\bmax_rpm\s*=\s*(\d+)\b/;
const flag = (name: string, body: string) => {
  const m = new RegExp(`\\b${name}\\s*=\\s*(True|False)\\b`).exec(body);
  return m ? m[1] === "True" : undefined;
};

const DECORATED_DEF =
  /@(agent|task)\b[^\n]*\n(?:[ \t]*@[^\n]*\n)*[ \t]*(?:async[ \t]+)?def[ \t]+(\w+)[ \t]*\(/g;
// A method body ends where the next decorator, def or class starts a line.
const NEXT_MEMBER = /\n[ \t]*(?:@|def\s|async\s+def\s|class\s)/g;
const configKey = (section: "agents" | "tasks") =>
  new RegExp(`\\b${section}_config\\s*\\[\\s*(['"])([^'"\\n]+)\\1\\s*\\]`);
const AGENT_CALL = /\bagent\s*=\s*self\s*\.\s*(\w+)\s*(?:\(\s*\))?\s*(?=[,)\n]|$)/;
const AGENT_ANY = /\bagent\s*=\s*([^,\n]+)/;

export function readCrewPy(source: string): CrewPy {
  const code = stripComments(source);
  const agents = new Map<string, string>();
  const tasks = new Map<string, TaskAgentRef>();
  const taskFlags: CrewPy["taskFlags"] = new Map();
  const agentTools: CrewPy["agentTools"] = new Map();
  const agentMcps: CrewPy["agentMcps"] = new Map();
  const taskModels: CrewPy["taskModels"] = new Map();
  for (const m of code.matchAll(DECORATED_DEF)) {
    const [, kind, method = ""] = m;
    if (kind !== "agent" && kind !== "task") continue;
    const start = (m.index ?? 0) + m[0].length;
    NEXT_MEMBER.lastIndex = start;
    const end = NEXT_MEMBER.exec(code)?.index ?? code.length;
    const body = code.slice(start, end);
    if (kind === "agent") {
      const key = configKey("agents").exec(body)?.[2] ?? method;
      agents.set(method, key);
      const tools = toolList(body);
      if (tools.length) agentTools.set(key, tools);
      const mcps = mcpsList(body);
      if (mcps) agentMcps.set(key, mcps);
      continue;
    }
    const key = configKey("tasks").exec(body)?.[2] ?? method;
    const flags = Object.fromEntries(
      (["async_execution", "human_input"] as const).flatMap((name) => {
        const value = flag(name, body);
        return value === undefined ? [] : [[name, value]];
      }),
    );
    if (Object.keys(flags).length) taskFlags.set(key, flags);
    const model = OUTPUT_MODEL.exec(body)?.[1];
    if (model) taskModels.set(key, model);
    const call = AGENT_CALL.exec(body);
    const any = AGENT_ANY.exec(body);
    tasks.set(
      key,
      call?.[1]
        ? { kind: "agent", method: call[1], taskMethod: method }
        : any?.[1]
          ? { kind: "unreadable", expr: balanced(any[1]), taskMethod: method }
          : { kind: "none", taskMethod: method },
    );
  }
  readAssignments(code, agents, tasks);
  return {
    agents,
    tasks,
    agentTools,
    agentMcps,
    taskModels,
    models: readPydanticModels(code),
    taskFlags,
    crew: readCrewCall(code, agents),
  };
}

// `tools=[SerperDevTool(), self.search_tool, file_read_tool]` → the names as written.
function toolList(body: string): string[] {
  const at = /\btools\s*=\s*\[/.exec(body);
  if (!at) return [];
  const end = body.indexOf("]", at.index);
  const list = body.slice(at.index + at[0].length, end < 0 ? undefined : end);
  return list
    .split(",")
    .map((t) =>
      t
        .trim()
        .replace(/^self\./, "")
        .replace(/\(.*$/s, ""),
    )
    .filter((t) => /^\w+$/.test(t));
}

// `mcps=["https://mcp.exa.ai/mcp#web_search_exa", 'stripe#list_invoices', MCPServerStdio(…)]`:
// the quoted entries as written, and a count of the rest.
function mcpsList(body: string): { refs: string[]; other: number } | undefined {
  const at = /\bmcps\s*=\s*\[/.exec(body);
  if (!at) return undefined;
  const list = balancedList(body, at.index + at[0].length);
  const refs: string[] = [];
  let other = 0;
  for (const item of splitTopLevel(list)) {
    const quoted = /^(?:[rRuU])?(['"])(.*)\1$/s.exec(item.trim());
    if (quoted?.[2] !== undefined) refs.push(quoted[2]);
    else if (item.trim()) other += 1;
  }
  return { refs, other };
}

// The text of a list from just after its `[` to its matching `]` (nested brackets, quotes kept).
function balancedList(text: string, from: number): string {
  let depth = 0;
  let quote: string | null = null;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "[" || c === "(" || c === "{") depth++;
    else if (c === "]" || c === ")" || c === "}") {
      if (depth === 0) return text.slice(from, i);
      depth--;
    }
  }
  return text.slice(from);
}

// Top-level comma-separated items of a list's text.
function splitTopLevel(list: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "[" || c === "(" || c === "{") depth++;
    else if (c === "]" || c === ")" || c === "}") depth--;
    else if (c === "," && depth === 0) {
      items.push(list.slice(start, i));
      start = i + 1;
    }
  }
  items.push(list.slice(start));
  return items.filter((t) => t.trim());
}

// A script instead of a @CrewBase class (`researcher = Agent(config=agents_config["researcher"])`,
// `research = Task(description=tasks_config["research"]["description"], agent=researcher)`):
// the same two facts, from assignments.
const ASSIGNED = /^[ \t]*(\w+)[ \t]*=[ \t]*(Agent|Task)[ \t]*\(/gm;
const AGENT_VAR = /\bagent\s*=\s*(\w+)\s*(?=[,)\n]|$)/;

function readAssignments(code: string, agents: CrewPy["agents"], tasks: CrewPy["tasks"]) {
  for (const m of code.matchAll(ASSIGNED)) {
    const [, name = "", kind] = m;
    const args = callArguments(code, (m.index ?? 0) + m[0].length);
    if (kind === "Agent") {
      const key = configKey("agents").exec(args)?.[2];
      if (key && !agents.has(name)) agents.set(name, key);
      continue;
    }
    const key = configKey("tasks").exec(args)?.[2];
    const agent = AGENT_VAR.exec(args)?.[1];
    if (key && agent && !tasks.has(key))
      tasks.set(key, { kind: "agent", method: agent, taskMethod: name });
  }
}

// The text of a call's arguments, from just after "(" to its matching ")".
function callArguments(code: string, start: number): string {
  let depth = 1;
  for (let i = start; i < code.length; i++) {
    if (code[i] === "(") depth++;
    else if (code[i] === ")" && --depth === 0) return code.slice(start, i);
  }
  return code.slice(start);
}

// The Crew(...) of the @crew method (CrewAI's process, manager and rate limit live there).
function readCrewCall(code: string, agents: Map<string, string>): CrewPy["crew"] {
  const m = DECORATED_CREW.exec(code);
  if (!m) return {};
  const start = m.index + m[0].length;
  NEXT_MEMBER.lastIndex = start;
  const body = code.slice(start, NEXT_MEMBER.exec(code)?.index ?? code.length);
  const named = PROCESS.exec(body)?.[1];
  const process = named === "sequential" || named === "hierarchical" ? named : undefined;
  const managerLlm = MANAGER_LLM.exec(body)?.[2];
  const managerMethod = MANAGER_AGENT.exec(body)?.[1];
  const rpm = MAX_RPM.exec(body)?.[1];
  return {
    ...(process ? { process } : {}),
    ...(managerLlm ? { manager_llm: managerLlm } : {}),
    ...(managerMethod ? { manager_agent: agents.get(managerMethod) ?? managerMethod } : {}),
    ...(rpm ? { max_rpm: Number(rpm) } : {}),
  };
}

// The expression up to the comma or line end, without the call's own closing parenthesis.
function balanced(expr: string) {
  let out = expr.trim();
  const count = (ch: string) => out.split(ch).length - 1;
  while (out.endsWith(")") && count(")") > count("(")) out = out.slice(0, -1).trimEnd();
  return out;
}

/** Blanks out `#` comments (keeping line breaks), leaving string literals as they are. */
export function stripComments(source: string): string {
  let out = "";
  let i = 0;
  while (i < source.length) {
    const ch = source.charAt(i);
    if (ch === "#") {
      while (i < source.length && source[i] !== "\n") i++;
      continue;
    }
    if (ch === '"' || ch === "'") {
      const triple = source.startsWith(ch.repeat(3), i);
      const close = triple ? ch.repeat(3) : ch;
      let j = i + close.length;
      while (j < source.length && !source.startsWith(close, j)) {
        if (source[j] === "\\") j++;
        else if (!triple && source[j] === "\n") break; // an unclosed one-line string ends here
        j++;
      }
      j = Math.min(source.length, j + close.length);
      out += source.slice(i, j);
      i = j;
      continue;
    }
    out += ch;
    i++;
  }
  return out;
}
