/**
 * Measures of the house that tests/unit/house.test.ts holds and `npm run house` prints: type
 * casts and function lengths, read from each file's syntax tree (oxc's parser), never its text.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseSync } from "oxc-parser";

export const ROOT = path.resolve(import.meta.dirname, "../..");
const SKIP = new Set(["node_modules", ".next", "test-results", "reports"]);

/** The .ts and .tsx files under these folders of the checkout, as paths from its root. */
export function sourceFiles(folders: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIP.has(entry.name)) walk(rel);
      } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(rel);
    }
  };
  for (const folder of folders) walk(folder);
  return out.sort();
}

type Node = { type: string; start: number; end: number; [key: string]: unknown };

function isNode(value: unknown): value is Node {
  return (
    typeof value === "object" && value !== null && typeof Reflect.get(value, "type") === "string"
  );
}

/** Every node of the tree, parents before children, each with its parent. */
function* walk(node: Node, parent?: Node): Generator<[Node, Node | undefined]> {
  yield [node, parent];
  for (const [key, value] of Object.entries(node)) {
    if (key === "type" || key === "start" || key === "end") continue;
    for (const child of Array.isArray(value) ? value : [value]) {
      if (isNode(child)) yield* walk(child, node);
    }
  }
}

export type Cast = { file: string; line: number; text: string; onReceivedData: boolean };
export type FunctionSpan = { file: string; line: number; name: string; lines: number };
export type FileShape = { casts: Cast[]; functions: FunctionSpan[] };

const FUNCTIONS = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);

function unwrap(node: Node): Node {
  let n = node;
  while (
    (n.type === "ParenthesizedExpression" ||
      n.type === "AwaitExpression" ||
      n.type === "TSNonNullExpression") &&
    isNode(n.expression ?? n.argument)
  ) {
    n = (n.expression ?? n.argument) as Node;
  }
  return n;
}

/**
 * A cast on what came from outside the program: a stored or received JSON text parsed, or a
 * request's or response's body read. Its shape is the sender's to choose, so it is parsed (zod)
 * instead of asserted.
 */
function castsReceivedData(expression: Node): boolean {
  const inner = unwrap(expression);
  if (inner.type !== "CallExpression" || !isNode(inner.callee)) return false;
  const callee = inner.callee;
  if (callee.type !== "MemberExpression" || !isNode(callee.property)) return false;
  const name = Reflect.get(callee.property, "name");
  const object = isNode(callee.object) ? Reflect.get(callee.object, "name") : undefined;
  return (object === "JSON" && name === "parse") || name === "json" || name === "formData";
}

function isAsConst(node: Node): boolean {
  const annotation = node.typeAnnotation;
  return (
    isNode(annotation) &&
    annotation.type === "TSTypeReference" &&
    isNode(annotation.typeName) &&
    Reflect.get(annotation.typeName, "name") === "const"
  );
}

function functionName(node: Node, parent: Node | undefined): string {
  if (isNode(node.id)) return String(Reflect.get(node.id, "name"));
  if (parent && (parent.type === "VariableDeclarator" || parent.type === "PropertyDefinition")) {
    if (isNode(parent.id)) return String(Reflect.get(parent.id, "name"));
  }
  if (
    parent &&
    (parent.type === "Property" || parent.type === "MethodDefinition") &&
    isNode(parent.key)
  ) {
    return String(Reflect.get(parent.key, "name") ?? Reflect.get(parent.key, "value"));
  }
  return "(anonymous)";
}

/** The casts and the functions of one file. */
export function fileShape(file: string): FileShape {
  const source = readFileSync(path.join(ROOT, file), "utf8");
  const { program, errors } = parseSync(file, source);
  if (errors.length) throw new Error(`${file}: ${errors[0]?.message}`);
  const lineStarts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === "\n") lineStarts.push(i + 1);
  const lineOf = (offset: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((lineStarts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const shape: FileShape = { casts: [], functions: [] };
  for (const [node, parent] of walk(program as unknown as Node)) {
    if ((node.type === "TSAsExpression" && !isAsConst(node)) || node.type === "TSTypeAssertion") {
      shape.casts.push({
        file,
        line: lineOf(node.start),
        text: source.slice(node.start, node.end).replace(/\s+/g, " ").slice(0, 120),
        onReceivedData: isNode(node.expression) && castsReceivedData(node.expression),
      });
    } else if (FUNCTIONS.has(node.type)) {
      shape.functions.push({
        file,
        line: lineOf(node.start),
        name: functionName(node, parent),
        lines: lineOf(node.end) - lineOf(node.start) + 1,
      });
    }
  }
  return shape;
}

/** A file's folder for the budgets: lib's and components' first level, app as one. */
export function folderOf(file: string): string {
  const parts = file.split("/");
  if ((parts[0] === "lib" || parts[0] === "components") && parts.length > 2)
    return `${parts[0]}/${parts[1]}`;
  return parts[0] ?? file;
}
