import type { StatusResponse } from "@/lib/contract/status";
import { isActive } from "@/lib/run-model/states";
import type { FlowLayout, FlowShapeMethod } from "./flow-layout";

// Where a flow's graph (flow-graph.tsx) puts its methods and edges, and how each one looks on a run.

const MAX_W = 168;
const MIN_W = 116;
export const H = 56;
const GAP_ACROSS = 56; // between layers
const GAP_ALONG = 16; // between methods of a layer
const LOOP = 40; // room under the graph for edges that run back (a cycle)

export type NodeState = "done" | "running" | "waiting" | "queued" | "failed" | "not_run" | "idle";

const STATE_WORDS: Record<NodeState, string> = {
  done: "ran",
  running: "running",
  waiting: "waiting for a person",
  queued: "queued",
  failed: "failed",
  not_run: "did not run",
  idle: "",
};

/** What the graph reads of a run's /status. */
type FlowRun = Pick<StatusResponse, "status"> & {
  tasks: { task_id: string; status: string }[];
  flow?: Pick<NonNullable<StatusResponse["flow"]>, "path" | "queued" | "current"> | null;
};

/** Each method's state on a run: ran, at work, waiting, queued, failed, or did not run. */
export function nodeStates(methods: FlowShapeMethod[], status?: FlowRun) {
  const states = new Map<string, NodeState>();
  const flow = status?.flow;
  for (const m of methods) {
    if (!status || !flow) {
      states.set(m.name, "idle");
      continue;
    }
    const task = status.tasks.find((t) => t.task_id === m.name);
    const ran = flow.path.some((p) => p.method === m.name);
    let state: NodeState = ran ? "done" : isActive(status.status) ? "idle" : "not_run";
    if (flow.queued.includes(m.name)) state = "queued";
    if (flow.current?.method === m.name)
      state = flow.current.awaiting_feedback ? "waiting" : "running";
    if (task?.status === "error") state = "failed";
    states.set(m.name, state);
  }
  return states;
}

/** What a method's button reads out: its name, call, state and what kind of method it is. */
export function nodeLabel(m: FlowShapeMethod, state: NodeState): string {
  return `${m.name}: ${m.call}${state !== "idle" ? `, ${STATE_WORDS[state]}` : ""}${m.router ? ", routes" : ""}${m.human_feedback ? ", asks for feedback" : ""}`;
}

/** Nodes shrink to fit the space (down to MIN_W); past that, the graph scrolls. */
export function nodeWidth(width: number | null, layout: FlowLayout, narrow: boolean): number {
  const across = narrow ? layout.rows : layout.layers;
  const gap = narrow ? GAP_ALONG : GAP_ACROSS;
  return Math.round(
    Math.max(MIN_W, Math.min(MAX_W, width ? (width - (across - 1) * gap) / across : MAX_W)),
  );
}

export type Placed = FlowLayout["nodes"][number] & { x: number; y: number };

export type Placement = {
  W: number;
  narrow: boolean;
  at: Map<string, Placed>;
  size: { w: number; h: number };
  /** Room below the graph for edges that run back (a cycle), if any. */
  room: number;
};

/** Across (layers) runs left to right, or top to bottom on a narrow screen. */
export function placeFlow(layout: FlowLayout, narrow: boolean, W: number): Placement {
  const place = (layer: number, row: number) =>
    narrow
      ? { x: row * (W + GAP_ALONG), y: layer * (H + GAP_ACROSS) }
      : { x: layer * (W + GAP_ACROSS), y: row * (H + GAP_ALONG) };
  const size = narrow
    ? {
        w: layout.rows * (W + GAP_ALONG) - GAP_ALONG,
        h: layout.layers * (H + GAP_ACROSS) - GAP_ACROSS,
      }
    : {
        w: layout.layers * (W + GAP_ACROSS) - GAP_ACROSS,
        h: layout.rows * (H + GAP_ALONG) - GAP_ALONG,
      };
  const at = new Map(layout.nodes.map((n) => [n.method.name, { ...n, ...place(n.layer, n.row) }]));
  const layerOf = (name: string) => at.get(name)?.layer ?? 0;
  const loops = layout.edges.some((e) => layerOf(e.to) <= layerOf(e.from));
  return { W, narrow, at, size, room: loops ? LOOP : 0 };
}

/** An edge's curve from `a` to `b`; one that runs back loops around the graph's edge. */
export function edgePath(a: Placed, b: Placed, p: Pick<Placement, "W" | "narrow" | "size">) {
  const { W, narrow, size } = p;
  if (b.layer <= a.layer)
    return narrow
      ? `M ${a.x + W} ${a.y + H / 2} C ${a.x + W + LOOP} ${a.y + H / 2}, ${b.x + W + LOOP} ${b.y + H / 2}, ${b.x + W} ${b.y + H / 2}`
      : `M ${a.x + W / 2} ${a.y + H} C ${a.x + W / 2} ${size.h + LOOP - 4}, ${b.x + W / 2} ${size.h + LOOP - 4}, ${b.x + W / 2} ${b.y + H}`;
  return narrow
    ? `M ${a.x + W / 2} ${a.y + H} C ${a.x + W / 2} ${a.y + H + GAP_ACROSS / 2}, ${b.x + W / 2} ${b.y - GAP_ACROSS / 2}, ${b.x + W / 2} ${b.y}`
    : `M ${a.x + W} ${a.y + H / 2} C ${a.x + W + GAP_ACROSS / 2} ${a.y + H / 2}, ${b.x - GAP_ACROSS / 2} ${b.y + H / 2}, ${b.x} ${b.y + H / 2}`;
}

/** Where an edge's outcome is written: halfway between its ends. */
export function edgeMiddle(a: Placed, b: Placed, { W, narrow }: Pick<Placement, "W" | "narrow">) {
  return narrow
    ? { x: (a.x + b.x) / 2 + W / 2, y: (a.y + H + b.y) / 2 }
    : { x: (a.x + W + b.x) / 2, y: (a.y + b.y) / 2 + H / 2 };
}

/**
 * Whether an edge is on the path the run took: a router's edge when the router gave one of its
 * outcomes, any other when its source ran and its target was reached.
 */
export function edgeLit(
  e: { from: string; to: string; outcome?: string },
  states: Map<string, NodeState>,
  path: { method: string; outcome: string | null }[],
): boolean {
  if (e.outcome) {
    const outcomes = e.outcome.split(", ");
    return path.some((p) => p.method === e.from && !!p.outcome && outcomes.includes(p.outcome));
  }
  return (
    states.get(e.from) === "done" && states.get(e.to) !== "idle" && states.get(e.to) !== "not_run"
  );
}
