import { GitBranch, Hand, Play } from "lucide-react";
import { cn } from "@/components/ui/cn";
import {
  edgeLit,
  edgeMiddle,
  edgePath,
  H,
  type NodeState,
  nodeLabel,
  type Placed,
  type Placement,
} from "./flow-geometry";
import type { FlowLayout, FlowShapeMethod } from "./flow-layout";

// The drawn parts of a flow's graph (flow-graph.tsx): its edges, its methods and the legend.

const NODE_TONE: Record<NodeState, string> = {
  done: "border-chart-1/70 bg-card",
  running: "border-chart-4 bg-card ring-2 ring-chart-4/30",
  waiting: "border-chart-5 bg-card ring-2 ring-chart-5/30",
  queued: "border-dashed border-chart-4/60 bg-card",
  failed: "border-destructive bg-card",
  not_run: "border-dashed bg-muted/40 opacity-60",
  idle: "border-border bg-card",
};

export function FlowEdges({
  edges,
  placement,
  states,
  path,
}: {
  edges: FlowLayout["edges"];
  placement: Placement;
  states: Map<string, NodeState>;
  path: { method: string; outcome: string | null }[];
}) {
  const { size, room } = placement;
  return (
    <svg
      aria-hidden
      className="absolute inset-0 overflow-visible"
      width={size.w}
      height={size.h + room}
    >
      {edges.map((e) => {
        const a = placement.at.get(e.from);
        const b = placement.at.get(e.to);
        if (!a || !b) return null;
        const lit = edgeLit(e, states, path);
        const mid = edgeMiddle(a, b, placement);
        return (
          <g key={`${e.from}-${e.to}-${e.outcome ?? ""}`}>
            <path
              d={edgePath(a, b, placement)}
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
  );
}

export function FlowNode({
  method: m,
  at,
  width,
  state,
  selected,
  onToggle,
}: {
  method: FlowShapeMethod;
  at: Placed;
  width: number;
  state: NodeState;
  selected: boolean;
  onToggle: () => void;
}) {
  return (
    <button
      type="button"
      aria-pressed={selected}
      aria-label={nodeLabel(m, state)}
      onClick={onToggle}
      className={cn(
        "absolute flex flex-col justify-center gap-1 rounded-lg border px-2.5 text-left transition-shadow",
        "hover:shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
        NODE_TONE[state],
        selected && "ring-2 ring-ring",
        state === "running" && "motion-safe:animate-pulse",
      )}
      style={{ left: at.x, top: at.y, width, height: H }}
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
}

export function FlowLegend() {
  return (
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
  );
}
