import {
  calleeName,
  descendants,
  keywordArgs,
  literalValue,
  namedChildren,
  type PyNode,
  selfMember,
  stringValue,
  subscriptKey,
} from "./python-syntax";

// What a keyword argument of crew.py stands for, followed as far as the file shows it: a variable
// to its assignment (in the method, the class, then the module), `self.x` to the class's
// attribute, `self.x()` to what the method returns. Python is never run: what cannot be followed
// is reported as written.

/** Where names are looked up, nearest first: the method, the class, the module. */
export type Scope = { method?: PyNode; klass?: PyNode; module: PyNode };

/** The value last assigned to `name` directly in `block` (not in nested functions). */
function assignedIn(block: PyNode | undefined, name: string): PyNode | undefined {
  let found: PyNode | undefined;
  for (const stmt of namedChildren(block)) {
    const expr = stmt.type === "expression_statement" ? namedChildren(stmt)[0] : undefined;
    if (expr?.type !== "assignment") continue;
    if (expr.childForFieldName("left")?.text !== name) continue;
    found = expr.childForFieldName("right") ?? found;
  }
  return found;
}

const bodyOf = (node: PyNode | undefined) => node?.childForFieldName("body") ?? undefined;

/** A method of the class by name. */
function methodOf(klass: PyNode | undefined, name: string): PyNode | undefined {
  for (const def of descendants(bodyOf(klass) ?? (klass as PyNode), "function_definition"))
    if (def.childForFieldName("name")?.text === name) return def;
  return undefined;
}

/** The call a method returns (`return Agent(...)`), or its first call. */
export function returnedCall(def: PyNode | undefined): PyNode | undefined {
  if (!def) return undefined;
  for (const ret of descendants(def, "return_statement")) {
    const value = namedChildren(ret)[0];
    if (value?.type === "call") return value;
  }
  return descendants(def, "call")[0];
}

/** Follows a name or `self.x` / `self.x()` to what it stands for; the node itself otherwise. */
export function follow(node: PyNode, scope: Scope, depth = 0): PyNode {
  if (depth > 5) return node;
  if (node.type === "identifier") {
    const value =
      assignedIn(bodyOf(scope.method), node.text) ??
      assignedIn(bodyOf(scope.klass), node.text) ??
      assignedIn(scope.module, node.text);
    return value ? follow(value, scope, depth + 1) : node;
  }
  const member = selfMember(node);
  if (member && node.type === "attribute") {
    const value = assignedIn(bodyOf(scope.klass), member);
    return value ? follow(value, scope, depth + 1) : node;
  }
  if (member && node.type === "call") {
    const returned = returnedCall(methodOf(scope.klass, member));
    return returned
      ? follow(returned, { ...scope, method: methodOf(scope.klass, member) }, depth + 1)
      : node;
  }
  return node;
}

/** A tool entry: the class it makes (`SerperDevTool`), else the name it is written by. */
function toolName(entry: PyNode, scope: Scope): string {
  const value = follow(entry, scope);
  if (value.type === "call") return calleeName(value);
  return (selfMember(entry) ?? entry.text).replace(/\(.*$/s, "");
}

/** A `tools=` value's entries, or undefined when it is not a list the file spells out. */
export function toolList(value: PyNode, scope: Scope): string[] | undefined {
  const list = follow(value, scope);
  if (list.type !== "list") return undefined;
  return namedChildren(list)
    .filter((c) => c.type !== "comment")
    .map((c) => toolName(c, scope));
}

const LLM_KEYS = [
  "model",
  "provider",
  "base_url",
  "api_base",
  "api_version",
  "temperature",
  "max_tokens",
  "top_p",
  "seed",
  "stop",
];

/** `llm="gpt-4o"`, `llm=LLM(model=…, base_url=…)`: the model (and settings), else undefined. */
export function llmValue(
  value: PyNode,
  scope: Scope,
): string | Record<string, unknown> | undefined {
  const v = follow(value, scope);
  const text = stringValue(v);
  if (text !== undefined) return text;
  if (v.type !== "call" || calleeName(v) !== "LLM") return undefined;
  const args = keywordArgs(v);
  const model =
    stringValue(args.get("model")) ??
    stringValue(namedChildren(v.childForFieldName("arguments"))[0]);
  if (!model) return undefined;
  const settings: Record<string, unknown> = { model };
  for (const key of LLM_KEYS.slice(1)) {
    const literal = literalValue(args.get(key));
    if (literal !== undefined && literal !== null) settings[key] = literal;
  }
  return Object.keys(settings).length === 1 ? model : settings;
}

export const AGENTS_CONFIG = /(^|\.)agents_config$/;
export const TASKS_CONFIG = /(^|\.)tasks_config$/;
/** The YAML key a call's arguments index its config by (`tasks_config["x"]["description"]`). */
export const configKey = (call: PyNode, of: RegExp) =>
  descendants(call, "subscript")
    .map((s) => subscriptKey(s, of))
    .find((k) => k !== undefined);

export const bool = (node: PyNode | undefined) => {
  const v = literalValue(node);
  return typeof v === "boolean" ? v : undefined;
};
export const int = (node: PyNode | undefined) => {
  const v = literalValue(node);
  return typeof v === "number" && Number.isInteger(v) ? v : undefined;
};

export const INSTEAD = {
  memory: "Crewdeck keeps no agent memory: the run's tasks pass their outputs as context instead",
  knowledge_sources:
    "Crewdeck loads no knowledge sources: give the agent the documents through an MCP server or the read_file tool",
  planning: "Crewdeck does not plan before a crew runs: the tasks run as written",
  embedder: "Crewdeck keeps no embeddings (no memory or knowledge): it is not used",
} as const;
