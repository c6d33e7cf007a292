"use client";

import { useEffect, useMemo, useState } from "react";
import { useMediaQuery } from "@/components/ui/use-media-query";
import type { StatusResponse } from "@/lib/contract/status";
import { nodeStates, nodeWidth, placeFlow } from "./flow-geometry";
import { FlowEdges, FlowLegend, FlowNode } from "./flow-graph-parts";
import { type FlowShapeMethod, layoutFlow } from "./flow-layout";
import { MethodDetail } from "./flow-method-detail";

// A flow's methods as a graph: what starts it, what each method sets off, routers with their
// outcomes. On a run, the branch taken is lit, the method at work marked, and what did not run
// dimmed; a method opens its output, outcome and nested runs below the graph.

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
  const { width, ref } = useWidth();
  const placement = placeFlow(layout, narrow, nodeWidth(width, layout, narrow));
  const { size, room } = placement;
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
          <FlowEdges
            edges={layout.edges}
            placement={placement}
            states={states}
            path={status?.flow?.path ?? []}
          />
          {layout.nodes.map(({ method: m }) => {
            const at = placement.at.get(m.name);
            if (!at) return null;
            return (
              <FlowNode
                key={m.name}
                method={m}
                at={at}
                width={placement.W}
                state={states.get(m.name) ?? "idle"}
                selected={selected === m.name}
                onToggle={() => setSelected(selected === m.name ? null : m.name)}
              />
            );
          })}
        </div>
      </div>
      <FlowLegend />
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
