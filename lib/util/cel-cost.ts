import type { ASTNode } from "@marcbachmann/cel-js";
import { CEL_COST_LIMIT, CHAR, type Cost, functionCost, MACROS } from "./cel-function-cost";
import {
  BYTES,
  fieldOf,
  itemsOf,
  iterationOf,
  LIST,
  MAP,
  merge,
  SCALAR,
  type Shape,
  SMALLEST,
  STRING,
  text,
} from "./cel-shape";

// An upper bound on what evaluating a parsed CEL expression costs, worked out from the tree and
// the shapes of its inputs before anything runs (cel-js has no runtime hook). Units follow
// cel-go's cost model: 1 for each step (a node, a macro's turn, an item copied), 0.1 for each
// character read or written. A macro costs its body once per item of its receiver, so nested
// macros multiply; `+` costs what it copies; the result costs what turning it into JSON copies.

export { CEL_COST_LIMIT };

type Scope = ReadonlyMap<string, Shape>;

// A macro's turn: binding the item, checking its type, catching the body's error (exists, all).
const TURN = 3;

/** The most `ast` can cost when its variables have the shapes `variable` gives. */
export function estimateCost(ast: ASTNode, variable: (name: string) => Shape): number {
  const { cost, shape } = walk(ast, new Map(), variable);
  return cost + traverse(shape);
}

// 0 × Infinity is NaN; what never runs costs nothing.
const times = (n: number, each: number) => (n === 0 || each === 0 ? 0 : n * each);
/** Reading all of a value: comparing it, copying it out as JSON. */
const traverse = (s: Shape) => s.nodes + CHAR * s.chars;
/** Copying a value's top level, as `+` does: a list's items, a string's characters. */
const copy = (s: Shape) =>
  (s.kinds & LIST ? s.len : 0) + (s.kinds & (STRING | BYTES) ? CHAR * s.len : 0);

function walk(node: ASTNode, scope: Scope, variable: (name: string) => Shape): Cost {
  const sub = (n: ASTNode, inner = scope) => walk(n, inner, variable);
  switch (node.op) {
    case "value": {
      const text = typeof node.args === "string" ? { literal: node.args } : {};
      return { cost: 1, shape: literal(node.args), ...text };
    }
    case "id":
      return { cost: 1, shape: scope.get(node.args) ?? variable(node.args) };
    case ".":
    case ".?": {
      const target = sub(node.args[0]);
      return { cost: 1 + target.cost, shape: fieldOf(target.shape, node.args[1]) };
    }
    case "[]":
    case "[?]": {
      const t = sub(node.args[0]);
      const k = sub(node.args[1]);
      const key = node.args[1].op === "value" ? node.args[1].args : undefined;
      const shape = typeof key === "string" ? fieldOf(t.shape, key) : itemsOf(t.shape);
      return { cost: 1 + t.cost + k.cost + CHAR * k.shape.chars, shape };
    }
    case "list":
      return listOf(node.args.map((n) => sub(n)));
    case "map":
      return mapOf(node.args.map(([k, v]) => ({ key: sub(k), value: sub(v), literal: k })));
    case "!_":
    case "-_":
      return { cost: 1 + sub(node.args).cost, shape: SCALAR };
    case "&&":
    case "||":
      return { cost: 1 + sub(node.args[0]).cost + sub(node.args[1]).cost, shape: SCALAR };
    case "?:": {
      const [c, a, b] = [sub(node.args[0]), sub(node.args[1]), sub(node.args[2])];
      return { cost: 1 + c.cost + a.cost + b.cost, shape: merge(a.shape, b.shape) };
    }
    case "call":
      return call(node.args[0], undefined, node.args[1], scope, variable);
    case "rcall":
      return call(node.args[0], node.args[1], node.args[2], scope, variable);
    default: {
      return binary(node.op, sub(node.args[0]), sub(node.args[1]));
    }
  }
}

const sum = (costs: readonly Cost[]) => costs.reduce((total, c) => total + c.cost, 0);

function literal(value: unknown): Shape {
  if (typeof value === "string") return text(value.length);
  if (value instanceof Uint8Array) return text(value.length, BYTES);
  return SCALAR;
}

function listOf(items: readonly Cost[]): Cost {
  const shape: Shape = {
    kinds: LIST,
    len: items.length,
    nodes: 1 + items.reduce((n, i) => n + i.shape.nodes, 0),
    chars: items.reduce((n, i) => n + i.shape.chars, 0),
    keyLen: Math.max(0, ...items.map((i) => i.shape.keyLen)),
    items: items.reduce<Shape>((s, i) => merge(s, i.shape), SMALLEST),
  };
  return { cost: 1 + items.length + sum(items), shape };
}

type Entry = { key: Cost; value: Cost; literal: ASTNode };

function mapOf(entries: readonly Entry[]): Cost {
  const fields = new Map<string, Shape>();
  let known = true;
  for (const { literal, value } of entries) {
    if (literal.op === "value" && typeof literal.args === "string") {
      const before = fields.get(literal.args);
      fields.set(literal.args, before ? merge(before, value.shape) : value.shape);
    } else known = false;
  }
  const each = (f: (e: Entry) => number) => entries.reduce((n, e) => n + f(e), 0);
  const shape: Shape = {
    kinds: MAP,
    len: entries.length,
    nodes: 1 + each((e) => e.key.shape.nodes + e.value.shape.nodes),
    chars: each((e) => e.key.shape.chars + e.value.shape.chars),
    keyLen: Math.max(0, ...entries.map((e) => Math.max(e.key.shape.len, e.value.shape.keyLen))),
    ...(known
      ? { fields }
      : { items: entries.reduce((s, e) => merge(s, e.value.shape), SMALLEST) }),
  };
  return { cost: 1 + 2 * entries.length + each((e) => e.key.cost + e.value.cost), shape };
}

function binary(op: string, a: Cost, b: Cost): Cost {
  const base = 1 + a.cost + b.cost;
  const x = a.shape;
  const y = b.shape;
  switch (op) {
    case "+": {
      // The items of both lists; merge's own items are those of both.
      const { items } = merge(x, y);
      const shape: Shape = {
        kinds: x.kinds | y.kinds,
        len: x.len + y.len,
        nodes: x.nodes + y.nodes,
        chars: x.chars + y.chars,
        keyLen: Math.max(x.keyLen, y.keyLen),
        ...(items ? { items } : {}),
      };
      return { cost: base + copy(x) + copy(y), shape };
    }
    case "==":
    case "!=":
    case "<":
    case "<=":
    case ">":
    case ">=":
      // Comparing stops at the smaller side.
      return { cost: base + Math.min(traverse(x), traverse(y)), shape: SCALAR };
    case "in":
      // Each item compared with the value: at most all of both.
      return { cost: base + y.len + traverse(y) + traverse(x), shape: SCALAR };
    default:
      return { cost: base, shape: SCALAR };
  }
}

function call(
  name: string,
  receiver: ASTNode | undefined,
  args: readonly ASTNode[],
  scope: Scope,
  variable: (name: string) => Shape,
): Cost {
  const sub = (n: ASTNode, inner = scope) => walk(n, inner, variable);
  const [first, ...rest] = args;
  if (receiver && first?.op === "id") {
    if (MACROS.has(name)) {
      // The body runs once per item of the receiver, with the item bound to the variable.
      const over = sub(receiver);
      const inner = new Map(scope).set(first.args, iterationOf(over.shape));
      const body = rest.map((n) => sub(n, inner));
      const turns = over.shape.len;
      const each = TURN + sum(body) + (name === "map" || name === "filter" ? 1 : 0);
      return { cost: 1 + over.cost + times(turns, each), shape: macroShape(name, over, body) };
    }
    if (name === "bind" && receiver.op === "id" && receiver.args === "cel") {
      const [value, body] = rest;
      if (value && body) {
        const bound = sub(value);
        const result = sub(body, new Map(scope).set(first.args, bound.shape));
        return { cost: 1 + bound.cost + result.cost, shape: result.shape };
      }
    }
  }
  const on = receiver ? sub(receiver) : undefined;
  const given = args.map((n) => sub(n));
  const all = on ? [on, ...given] : given;
  const { work, shape } = functionCost(name, all);
  return { cost: 1 + sum(all) + work, shape };
}

function macroShape(name: string, over: Cost, body: readonly Cost[]): Shape {
  const n = over.shape.len;
  const item = name === "map" ? body[body.length - 1]?.shape : iterationOf(over.shape);
  if ((name !== "map" && name !== "filter") || !item) return SCALAR;
  return {
    kinds: LIST,
    len: n,
    nodes: 1 + times(n, item.nodes),
    chars: times(n, item.chars),
    keyLen: item.keyLen,
    items: item,
  };
}
