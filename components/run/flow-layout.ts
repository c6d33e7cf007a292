// A flow's methods laid out as a graph: each method in a layer after the methods (or routers'
// outcomes) it listens to, edges from what sets it off. Pure: the graph component draws it.

export type FlowShapeMethod = {
  name: string;
  call: string;
  /** true: runs at kickoff; a condition: a conditional start; false: a listener. */
  start: unknown;
  listen: unknown;
  router: boolean;
  emit: string[];
  human_feedback: boolean;
};

type FlowEdge = {
  from: string;
  to: string;
  /** The routers' outcomes that set `to` off ("major, minor" when several). */
  outcome?: string;
};

export type FlowLayout = {
  nodes: { method: FlowShapeMethod; layer: number; row: number }[];
  edges: FlowEdge[];
  layers: number;
  rows: number;
};

/** The event names a condition waits on: `a`, `{or: [...]}`, `{and: [...]}`. */
function eventsOf(condition: unknown): string[] {
  if (typeof condition === "string") return [condition];
  if (!condition || typeof condition !== "object") return [];
  const parts = Object.values(condition).flatMap((v) => (Array.isArray(v) ? v : []));
  return parts.flatMap(eventsOf);
}

function flowEdges(methods: FlowShapeMethod[]): FlowEdge[] {
  const names = new Set(methods.map((m) => m.name));
  const edges: FlowEdge[] = [];
  for (const m of methods) {
    const condition = m.start === true || m.start === false ? m.listen : m.start;
    for (const event of eventsOf(condition)) {
      // A router's outcome is named by the routers that emit it, over a method of that name.
      const routers = methods.filter((r) => r.router && r.emit.includes(event));
      if (routers.length)
        for (const r of routers) edges.push({ from: r.name, to: m.name, outcome: event });
      else if (names.has(event)) edges.push({ from: event, to: m.name });
    }
  }
  // One line per pair: outcomes of the same router to the same method share it.
  const merged = new Map<string, FlowEdge>();
  for (const e of edges) {
    const key = `${e.from}→${e.to}`;
    const seen = merged.get(key);
    if (!seen) merged.set(key, e);
    else if (e.outcome)
      merged.set(key, {
        ...seen,
        outcome: seen.outcome ? `${seen.outcome}, ${e.outcome}` : e.outcome,
      });
  }
  return [...merged.values()];
}

/** Layers by the longest path from a start (edges back into a cycle are left out of it). */
export function layoutFlow(methods: FlowShapeMethod[]): FlowLayout {
  const edges = flowEdges(methods);
  const layer = new Map<string, number>();
  const visiting = new Set<string>();
  const layerOf = (name: string): number => {
    const known = layer.get(name);
    if (known !== undefined) return known;
    if (visiting.has(name)) return -1; // a cycle: this edge does not push it further
    visiting.add(name);
    const sources = edges.filter((e) => e.to === name).map((e) => layerOf(e.from));
    visiting.delete(name);
    const method = methods.find((m) => m.name === name);
    const l = method?.start === true || !sources.length ? 0 : Math.max(...sources) + 1;
    layer.set(name, Math.max(l, 0));
    return Math.max(l, 0);
  };
  const rowsIn = new Map<number, number>();
  const nodes = methods.map((method) => {
    const l = layerOf(method.name);
    const row = rowsIn.get(l) ?? 0;
    rowsIn.set(l, row + 1);
    return { method, layer: l, row };
  });
  return {
    nodes,
    edges,
    layers: Math.max(0, ...nodes.map((n) => n.layer)) + 1,
    rows: Math.max(1, ...rowsIn.values()),
  };
}
