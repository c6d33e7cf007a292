import { createRequire } from "node:module";
import path from "node:path";
import { Language, type Node, Parser } from "web-tree-sitter";

// A CrewAI project's Python, parsed with tree-sitter's Python grammar (never run): the syntax
// tree, and the few readings of it the loader needs — a call's name and keyword arguments, and
// the value of a literal (a string, a number, True/False/None, a list of literals).
//
// tree-sitter compiled to WebAssembly, with the grammar's own build of it: no native module to
// compile at install. Loading is asynchronous, so it is done once, when this module is loaded;
// parsing then is synchronous.

export type PyNode = Node;

// The grammar's file, found by Node at run time: a bundler resolving it would make it a module.
const grammar = path.join(
  path.dirname(
    createRequire(import.meta.url).resolve(
      /* turbopackIgnore: true */ "tree-sitter-python/package.json",
    ),
  ),
  "tree-sitter-python.wasm",
);
await Parser.init();
const parser = new Parser();
parser.setLanguage(await Language.load(grammar));

export function parsePython(source: string): PyNode {
  const tree = parser.parse(source);
  // Only a parser without a language, or one cancelled, gives no tree; this one has neither.
  if (!tree) throw new Error("tree-sitter gave no syntax tree");
  return tree.rootNode;
}

/** A node's named children (the binding types each as possibly null). */
export const namedChildren = (node: PyNode | null | undefined): PyNode[] =>
  (node?.namedChildren ?? []).filter((c) => c !== null);

/** 1-based, as editors and messages count lines. */
export const lineOf = (node: PyNode) => node.startPosition.row + 1;

/** Every node under `node` (itself included) of one of `types`, in source order. */
export function descendants(node: PyNode, ...types: string[]): PyNode[] {
  return node.descendantsOfType(types).filter((d) => d !== null);
}

/** A call's function as written: `Agent`, `crewai.Agent`, `self.researcher`. */
const calleeOf = (call: PyNode) => call.childForFieldName("function")?.text ?? "";

/** The last name of a call's function: `crewai.Task` → `Task`. */
export const calleeName = (call: PyNode) => calleeOf(call).split(".").pop() ?? "";

/** A call's keyword arguments by name. */
export function keywordArgs(call: PyNode): Map<string, PyNode> {
  const args = call.childForFieldName("arguments");
  const out = new Map<string, PyNode>();
  for (const arg of namedChildren(args)) {
    if (arg.type !== "keyword_argument") continue;
    const name = arg.childForFieldName("name")?.text;
    const value = arg.childForFieldName("value");
    if (name && value) out.set(name, value);
  }
  return out;
}

/** A string literal's value (no f-string with `{…}`), else undefined. */
export function stringValue(node: PyNode | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === "concatenated_string") {
    const parts = namedChildren(node).map(stringValue);
    return parts.every((p) => p !== undefined) ? parts.join("") : undefined;
  }
  if (node.type !== "string") return undefined;
  if (node.descendantsOfType("interpolation").length) return undefined;
  return namedChildren(node)
    .filter((c) => c.type === "string_content" || c.type === "escape_sequence")
    .map((c) => (c.type === "escape_sequence" ? unescaped(c.text) : c.text))
    .join("");
}

function unescaped(seq: string): string {
  const map: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", "'": "'", '"': '"' };
  return map[seq.slice(1)] ?? seq;
}

/** A literal's value: string, number, True/False/None, or a list of them; else undefined. */
export function literalValue(node: PyNode | undefined): unknown {
  if (!node) return undefined;
  switch (node.type) {
    case "string":
    case "concatenated_string":
      return stringValue(node);
    case "integer":
    case "float": {
      const n = Number(node.text.replace(/_/g, ""));
      return Number.isFinite(n) ? n : undefined;
    }
    case "true":
      return true;
    case "false":
      return false;
    case "none":
      return null;
    case "unary_operator": {
      const v = literalValue(namedChildren(node)[0]);
      return typeof v === "number" && node.text.trim().startsWith("-") ? -v : undefined;
    }
    case "list":
    case "tuple": {
      const items = namedChildren(node).map(literalValue);
      return items.every((i) => i !== undefined) ? items : undefined;
    }
    default:
      return undefined;
  }
}

/** `self.x()`, `self.x` → `x`; anything else undefined. */
export function selfMember(node: PyNode | undefined): string | undefined {
  if (!node) return undefined;
  const target = node.type === "call" ? node.childForFieldName("function") : node;
  if (target?.type !== "attribute") return undefined;
  if (target.childForFieldName("object")?.text !== "self") return undefined;
  return target.childForFieldName("attribute")?.text;
}

/** `x["key"]` / `self.agents_config['key']` → `key`, when the subscript is a string literal. */
export function subscriptKey(node: PyNode | undefined, of: RegExp): string | undefined {
  if (node?.type !== "subscript") return undefined;
  if (!of.test(node.childForFieldName("value")?.text ?? "")) return undefined;
  return stringValue(node.childForFieldName("subscript") ?? undefined);
}
