// What the CEL cost estimate (cel-cost.ts) knows of a value: upper bounds on its length and on
// everything inside it, never the value itself. A shape bounds every value it stands for, so an
// estimate made with it bounds every evaluation over those values.

export const STRING = 1;
export const BYTES = 2;
export const LIST = 4;
export const MAP = 8;
export const OTHER = 16;
const ALL = STRING | BYTES | LIST | MAP | OTHER;
const CONTAINER = LIST | MAP;

export type Shape = Readonly<{
  /** The kinds it may be (bits above); 0 for the smallest input, which may be anything. */
  kinds: number;
  /** Characters of a string, bytes, items of a list, entries of a map; 0 for the rest. */
  len: number;
  /** Values inside it, itself included: each string, number, list and map (and map key) is one. */
  nodes: number;
  /** Characters of every string and bytes inside it, map keys included. */
  chars: number;
  /** The longest map key inside it (what iterating a map gives). */
  keyLen: number;
  /** A list's items (and a map's values when `fields` is unknown); unknown: see `inside`. */
  items?: Shape;
  /** A map's values by key, when every key it may have is known. */
  fields?: ReadonlyMap<string, Shape>;
}>;

/** What the save-time check assumes of an input: the smallest value there is. */
export const SMALLEST: Shape = { kinds: 0, len: 0, nodes: 1, chars: 0, keyLen: 0 };
export const SCALAR: Shape = { kinds: OTHER, len: 0, nodes: 1, chars: 0, keyLen: 0 };
export const text = (len: number, kinds = STRING): Shape => ({
  kinds,
  len,
  nodes: 1,
  chars: len,
  keyLen: 0,
});

/** Any value inside one of shape `s`, known only by its totals. */
function inside(s: Shape): Shape {
  return {
    kinds: s.kinds === 0 ? 0 : ALL,
    len: Math.max(s.nodes - 1, s.chars),
    nodes: Math.max(s.nodes - 1, 1),
    chars: s.chars,
    keyLen: s.chars,
  };
}

const valuesMemo = new WeakMap<Shape, Shape>();

/** What indexing gives: a list's items, any of a map's values. */
export function itemsOf(s: Shape): Shape {
  if (!s.fields) return s.items ?? inside(s);
  let values = valuesMemo.get(s);
  if (!values) {
    values = SMALLEST;
    for (const f of s.fields.values()) values = merge(values, f);
    valuesMemo.set(s, values);
  }
  return values;
}

/** What `.name` (or `["name"]`) gives. A key no value has fails when evaluated. */
export function fieldOf(s: Shape, name: string): Shape {
  return s.fields ? (s.fields.get(name) ?? SCALAR) : itemsOf(s);
}

/** What a macro's variable takes: a list's items, a map's keys. */
export function iterationOf(s: Shape): Shape {
  let out = SMALLEST;
  if (s.kinds & LIST) out = merge(out, s.items ?? inside(s));
  if (s.kinds & MAP) out = merge(out, text(s.keyLen, STRING | OTHER));
  return out;
}

/** A shape bounding both: of `a ? x : y`, of a list literal's items, of `x + y`'s items. */
export function merge(a: Shape, b: Shape, depth = 0): Shape {
  if (a === b) return a;
  const totals = {
    kinds: a.kinds | b.kinds,
    len: Math.max(a.len, b.len),
    nodes: Math.max(a.nodes, b.nodes),
    chars: Math.max(a.chars, b.chars),
    keyLen: Math.max(a.keyLen, b.keyLen),
  };
  // Deep enough: the totals bound everything further in.
  if (depth > 16) return totals;
  const aHolds = (a.kinds & CONTAINER) !== 0;
  const bHolds = (b.kinds & CONTAINER) !== 0;
  if (!aHolds) return { ...totals, items: b.items, fields: b.fields };
  if (!bHolds) return { ...totals, items: a.items, fields: a.fields };
  const ai = a.fields ? itemsOf(a) : a.items;
  const bi = b.fields ? itemsOf(b) : b.items;
  return ai && bi ? { ...totals, items: merge(ai, bi, depth + 1) } : totals;
}

const shapes = new WeakMap<object, Shape>();

/**
 * The shape of `v`, a value as CEL reads it (lib/util/cel-values.ts). Kept for each list and map
 * (a converted value is never changed in place): a flow's `each` evaluates over the same state
 * for every item, and wraps it in a fresh object each time, which then costs only its own keys.
 */
export function shapeOf(v: unknown): Shape {
  if (!v || typeof v !== "object") return shapeOfAll([v], 0);
  const known = shapes.get(v);
  if (known) return known;
  const entries = entriesOf(v);
  let shape: Shape;
  if (entries && entries.length <= MAX_FIELDS) {
    const t = totalsOf(v);
    const fields = new Map(entries.map(([k, x]) => [k, shapeOf(x)]));
    const keyLen = Math.max(0, ...entries.map(([k]) => k.length));
    shape = { kinds: MAP, len: entries.length, ...t, keyLen, fields };
  } else shape = shapeOfAll([v], 0);
  shapes.set(v, shape);
  return shape;
}

// Keys past this many on the maps at one place are not told apart (their values are merged).
const MAX_FIELDS = 256;

// One pass over the values at one place (the items of all the lists there, the values under one
// key of all the maps there): linear in the data, however it nests.
function shapeOfAll(values: readonly unknown[], depth: number): Shape {
  const [only] = values;
  const alone = values.length === 1 ? entriesOf(only) : undefined;
  if (alone && alone.length <= MAX_FIELDS) return shapeOf(only);
  let kinds = 0;
  let len = 0;
  let nodes = 1;
  let chars = 0;
  let keyLen = 0;
  const items: unknown[] = [];
  const byKey = new Map<string, unknown[]>();
  for (const v of values) {
    const t = totalsOf(v);
    nodes = Math.max(nodes, t.nodes);
    chars = Math.max(chars, t.chars);
    const entries = entriesOf(v);
    if (typeof v === "string" || v instanceof Uint8Array) {
      kinds |= typeof v === "string" ? STRING : BYTES;
      len = Math.max(len, v.length);
    } else if (Array.isArray(v) || v instanceof Set) {
      kinds |= LIST;
      len = Math.max(len, Array.isArray(v) ? v.length : v.size);
      for (const x of v) items.push(x);
    } else if (entries) {
      kinds |= MAP;
      len = Math.max(len, entries.length);
      for (const [k, x] of entries) {
        keyLen = Math.max(keyLen, k.length);
        const group = byKey.get(k);
        if (group) group.push(x);
        else byKey.set(k, [x]);
      }
    } else kinds |= OTHER;
  }
  const totals = { kinds, len, nodes, chars, keyLen };
  if (!(kinds & CONTAINER)) return totals;
  // Too deep to follow: the totals bound everything further in.
  if (depth > 64) return totals;
  if (kinds & LIST || byKey.size > MAX_FIELDS) {
    for (const group of byKey.values()) for (const x of group) items.push(x);
    return { ...totals, items: shapeOfAll(items, depth + 1) };
  }
  const fields = new Map<string, Shape>();
  for (const [k, group] of byKey) fields.set(k, shapeOfAll(group, depth + 1));
  return { ...totals, fields };
}

function entriesOf(v: unknown): [string, unknown][] | undefined {
  if (v instanceof Map) return [...v].map(([k, x]) => [String(k), x]);
  if (v && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype)
    return Object.entries(v);
  if (v && typeof v === "object" && Object.getPrototypeOf(v) === null) return Object.entries(v);
  return undefined;
}

type Totals = { nodes: number; chars: number };
const totalsMemo = new WeakMap<object, Totals>();

function totalsOf(v: unknown): Totals {
  if (typeof v === "string") return { nodes: 1, chars: v.length };
  if (v instanceof Uint8Array) return { nodes: 1, chars: v.length };
  if (!v || typeof v !== "object") return { nodes: 1, chars: 0 };
  const known = totalsMemo.get(v);
  if (known) return known;
  const out = { nodes: 1, chars: 0 };
  const add = (x: unknown) => {
    const t = totalsOf(x);
    out.nodes += t.nodes;
    out.chars += t.chars;
  };
  const entries = entriesOf(v);
  if (entries)
    for (const [k, x] of entries) {
      add(k);
      add(x);
    }
  else if (Array.isArray(v) || v instanceof Set) for (const x of v) add(x);
  totalsMemo.set(v, out);
  return out;
}
