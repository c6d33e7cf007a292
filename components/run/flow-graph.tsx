"use client";

import { GitBranch, Hand, Play } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { cn } from "@/components/ui/cn";
import { useMediaQuery } from "@/components/ui/use-media-query";
import type { StatusResponse } from "@/lib/contract/status";
import { isActive } from "@/lib/run-model/states";
import { type FlowShapeMethod, layoutFlow } from "./flow-layout";
import { MethodDetail } from "./flow-method-detail";

// A flow's methods as a graph: what starts it, what each method sets off, routers with their
// outcomes. On a run, the branch taken is lit, the method at work marked, and what did not run
// dimmed; a method opens its output, outcome and nested runs below the graph.

const MAX_W = 168;
const MIN_W = 116;
const H = 56;
const GAP_ACROSS = 56; // between layers
const GAP_ALONG = 16; // between methods of a layer
const LOOP = 40; // room under the graph for edges that run back (a cycle)

type NodeState = "done" | "running" | "waiting" | "queued" | "failed" | "not_run" | "idle";

const NODE_TONE: Record<NodeState, string> = {
  done: "border-chart-1/70 bg-card",
  running: "border-chart-4 bg-card ring-2 ring-chart-4/30",
  waiting: "border-chart-5 bg-card ring-2 ring-chart-5/30",
  queued: "border-dashed border-chart-4/60 bg-card",
  failed: "border-destructive bg-card",
  not_run: "border-dashed bg-muted/40 opacity-60",
  idle: "border-border bg-card",
};

const STATE_WORDS: Record<NodeState, string> = {
  done: "ran",
  running: "running",
  waiting: "waiting for a person",
  queued: "queued",
  failed: "failed",
  not_run: "did not run",
  idle: "",
};

/** The width the graph has to fill, followed as it changes. */
function useWidth() {
  const [width, setWidth] = useState<number | null>(null);
  const [node, setNode] = useState<HTMLDivElement | null>(null);
  useEffect(() => {
    if (!node) return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry?.contentRect.width ?? null));
    observer.observe(node);
    return () => observer.disconnect();
  }, [node]);
  return { width, ref: setNode };
}

function nodeStates(methods: FlowShapeMethod[], status?: StatusResponse) {
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

/** The flow's graph; on a run, `status` lights the path it took. */
export function FlowGraph({
  crew,
  methods,
  status,
}: {
  crew: string;
  methods: FlowShapeMethod[];
  status?: StatusResponse;
}) {
  const narrow = useMediaQuery("(max-width: 639px)");
  const layout = useMemo(() => layoutFlow(methods), [methods]);
  const states = nodeStates(methods, status);
  const [selected, setSelected] = useState<string | null>(null);
  const flow = status?.flow;
  const taken = (flow?.path ?? []).flatMap((p) => (p.outcome ? [[p.method, p.outcome]] : []));
  const outcomeTaken = (from: string, outcomes: string) =>
    taken.some(([m, o]) => m === from && outcomes.split(", ").includes(o as string));
  const { width, ref } = useWidth();
  // Nodes shrink to fit the space (down to MIN_W); past that, the graph scrolls.
  const across = narrow ? layout.rows : layout.layers;
  const gap = narrow ? GAP_ALONG : GAP_ACROSS;
  const W = Math.round(
    Math.max(MIN_W, Math.min(MAX_W, width ? (width - (across - 1) * gap) / across : MAX_W)),
  );

  // Across (layers) runs left to right, or top to bottom on a narrow screen.
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
  const room = loops ? LOOP : 0;

  const chosen = selected ? methods.find((m) => m.name === selected) : undefined;
  return (
    <section
      aria-labelledby="flow-graph-title"
      className="min-w-0 rounded-xl border bg-card p-4 sm:p-5"
    >
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="flow-graph-title" className="m-0 font-semibold text-base">
          Flow
        </h2>
        <p className="m-0 text-muted-foreground text-xs">
          {methods.length} methods ·{" "}
          {status ? "the path taken is lit" : narrow ? "runs top to bottom" : "runs left to right"}
        </p>
      </div>
      <div ref={ref} className="overflow-x-auto pb-1">
        <div
          className="relative"
          style={{ width: size.w, height: size.h + room }}
          data-testid="flow-graph"
        >
          <svg
            aria-hidden
            className="absolute inset-0 overflow-visible"
            width={size.w}
            height={size.h + room}
          >
            {layout.edges.map((e) => {
              const a = at.get(e.from);
              const b = at.get(e.to);
              if (!a || !b) return null;
              const ran =
                states.get(e.from) === "done" &&
                states.get(e.to) !== "idle" &&
                states.get(e.to) !== "not_run";
              const lit = e.outcome ? outcomeTaken(e.from, e.outcome) : ran;
              const back = b.layer <= a.layer;
              const d = back
                ? narrow
                  ? `M ${a.x + W} ${a.y + H / 2} C ${a.x + W + LOOP} ${a.y + H / 2}, ${b.x + W + LOOP} ${b.y + H / 2}, ${b.x + W} ${b.y + H / 2}`
                  : `M ${a.x + W / 2} ${a.y + H} C ${a.x + W / 2} ${size.h + LOOP - 4}, ${b.x + W / 2} ${size.h + LOOP - 4}, ${b.x + W / 2} ${b.y + H}`
                : narrow
                  ? `M ${a.x + W / 2} ${a.y + H} C ${a.x + W / 2} ${a.y + H + GAP_ACROSS / 2}, ${b.x + W / 2} ${b.y - GAP_ACROSS / 2}, ${b.x + W / 2} ${b.y}`
                  : `M ${a.x + W} ${a.y + H / 2} C ${a.x + W + GAP_ACROSS / 2} ${a.y + H / 2}, ${b.x - GAP_ACROSS / 2} ${b.y + H / 2}, ${b.x} ${b.y + H / 2}`;
              const mid = narrow
                ? { x: (a.x + b.x) / 2 + W / 2, y: (a.y + H + b.y) / 2 }
                : { x: (a.x + W + b.x) / 2, y: (a.y + b.y) / 2 + H / 2 };
              return (
                <g key={`${e.from}-${e.to}-${e.outcome ?? ""}`}>
                  <path
                    d={d}
                    fill="none"
                    className={cn(lit ? "stroke-chart-1" : "stroke-border")}
                    strokeWidth={lit ? 2 : 1.25}
                    strokeDasharray={e.outcome && !lit ? "4 3" : undefined}
                  />
                  {e.outcome && (
                    <text
                      x={mid.x}
                      y={mid.y - 4}
                      textAnchor="middle"
                      className={cn(
                        "stroke-card text-[10px] [paint-order:stroke]",
                        lit ? "fill-foreground font-semibold" : "fill-muted-foreground",
                      )}
                      strokeWidth={4}
                    >
                      {e.outcome}
                    </text>
                  )}
                </g>
              );
            })}
          </svg>
          {layout.nodes.map(({ method: m }) => {
            const p = at.get(m.name);
            const state = states.get(m.name) ?? "idle";
            if (!p) return null;
            return (
              <button
                key={m.name}
                type="button"
                aria-pressed={selected === m.name}
                aria-label={`${m.name}: ${m.call}${state !== "idle" ? `, ${STATE_WORDS[state]}` : ""}${m.router ? ", routes" : ""}${m.human_feedback ? ", asks for feedback" : ""}`}
                onClick={() => setSelected(selected === m.name ? null : m.name)}
                className={cn(
                  "absolute flex flex-col justify-center gap-1 rounded-lg border px-2.5 text-left transition-shadow",
                  "hover:shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
                  NODE_TONE[state],
                  selected === m.name && "ring-2 ring-ring",
                  state === "running" && "motion-safe:animate-pulse",
                )}
                style={{ left: p.x, top: p.y, width: W, height: H }}
                data-state={state}
              >
                <span className="truncate font-medium font-mono text-xs">{m.name}</span>
                <span className="flex items-center gap-1.5 text-[11px] text-muted-foreground">
                  {m.start === true && <Play aria-hidden className="size-3" />}
                  {m.router && <GitBranch aria-hidden className="size-3" />}
                  {m.human_feedback && <Hand aria-hidden className="size-3" />}
                  <span className="truncate">{m.call}</span>
                </span>
              </button>
            );
          })}
        </div>
      </div>
      <p className="m-0 mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-muted-foreground text-xs">
        <span className="flex items-center gap-1">
          <Play aria-hidden className="size-3" /> starts the flow
        </span>
        <span className="flex items-center gap-1">
          <GitBranch aria-hidden className="size-3" /> routes by outcome
        </span>
        <span className="flex items-center gap-1">
          <Hand aria-hidden className="size-3" /> asks a person
        </span>
        <span>Select a method for its output.</span>
      </p>
      {chosen && (
        <MethodDetail
          crew={crew}
          method={chosen}
          status={status}
          notRun={states.get(chosen.name) === "not_run"}
        />
      )}
    </section>
  );
}
