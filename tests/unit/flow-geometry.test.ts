import { describe, expect, it } from "vitest";
import {
  edgeLit,
  edgeMiddle,
  edgePath,
  nodeLabel,
  nodeStates,
  nodeWidth,
  placeFlow,
} from "@/components/run/flow-geometry";
import { type FlowShapeMethod, layoutFlow } from "@/components/run/flow-layout";
import type { StatusResponse } from "@/lib/contract/status";

// A flow's graph: where its methods sit, which edges are lit, what each method reads out.
const method = (name: string, over: Partial<FlowShapeMethod> = {}): FlowShapeMethod => ({
  name,
  call: `${name}()`,
  start: false,
  listen: null,
  router: false,
  emit: [],
  human_feedback: false,
  ...over,
});
const methods = [
  method("begin", { start: true }),
  method("route", { listen: "begin", router: true, emit: ["big", "small"] }),
  method("big", { listen: "big" }),
  method("small", { listen: "small" }),
];

type Flow = NonNullable<StatusResponse["flow"]>;
const run = (
  status: StatusResponse["status"],
  flow: Partial<Flow>,
  tasks: { task_id: string; status: string }[] = [],
) => ({ status, tasks, flow: { current: null, path: [], queued: [], ...flow } });
const step = (m: string, outcome: string | null = null) => ({
  method: m,
  outcome,
  feedback: null,
  nested_runs: [],
  started_at: "",
  finished_at: "",
});

describe("a flow's graph", () => {
  it("marks each method's state on a run, and none without one", () => {
    expect([...nodeStates(methods).values()]).toEqual(["idle", "idle", "idle", "idle"]);
    const going = run("running", {
      path: [step("begin")],
      current: { method: "route", nested_run: null, awaiting_feedback: false },
      queued: ["big"],
    });
    expect([...nodeStates(methods, going).values()]).toEqual(["done", "running", "queued", "idle"]);
    const waiting = run("pending_human_input", {
      current: { method: "route", nested_run: null, awaiting_feedback: true },
    });
    expect(nodeStates(methods, waiting).get("route")).toBe("waiting");
    const ended = run("error", { path: [step("begin")] }, [{ task_id: "route", status: "error" }]);
    expect([...nodeStates(methods, ended).values()]).toEqual([
      "done",
      "failed",
      "not_run",
      "not_run",
    ]);
  });

  it("reads a method out with its state and kind", () => {
    expect(nodeLabel(method("a", { router: true, human_feedback: true }), "done")).toBe(
      "a: a(), ran, routes, asks for feedback",
    );
    expect(nodeLabel(method("a"), "idle")).toBe("a: a()");
  });

  it("fits the nodes to the width, between 116 and 168 px", () => {
    const layout = layoutFlow(methods); // 3 layers, 2 rows
    expect(nodeWidth(null, layout, false)).toBe(168);
    expect(nodeWidth(3 * 140 + 2 * 56, layout, false)).toBe(140);
    expect(nodeWidth(200, layout, false)).toBe(116);
    expect(nodeWidth(2 * 150 + 16, layout, true)).toBe(150);
  });

  it("places layers across, or down on a narrow screen, with room for an edge back", () => {
    const layout = layoutFlow(methods);
    const wide = placeFlow(layout, false, 100);
    expect(wide.size).toEqual({ w: 3 * 100 + 2 * 56, h: 2 * 56 + 16 });
    expect(wide.at.get("small")).toMatchObject({ x: 2 * 156, y: 72 });
    expect(wide.room).toBe(0);
    const narrow = placeFlow(layout, true, 100);
    expect(narrow.size).toEqual({ w: 2 * 100 + 16, h: 3 * 56 + 2 * 56 });
    expect(narrow.at.get("small")).toMatchObject({ x: 116, y: 2 * 112 });
    const looped = layoutFlow([...methods, method("again", { listen: "small" }), method("begin2")]);
    looped.edges.push({ from: "small", to: "begin" });
    expect(placeFlow(looped, false, 100).room).toBe(40);
  });

  it("draws forward edges between facing sides, and edges back around the graph", () => {
    const layout = layoutFlow(methods);
    const p = placeFlow(layout, false, 100);
    const [begin, route] = [p.at.get("begin"), p.at.get("route")];
    if (!begin || !route) throw new Error("placed");
    expect(edgePath(begin, route, p)).toBe("M 100 28 C 128 28, 128 28, 156 28");
    expect(edgePath(route, begin, p)).toBe("M 206 56 C 206 164, 50 164, 50 56");
    expect(edgeMiddle(begin, route, p)).toEqual({ x: 128, y: 28 });
    const n = placeFlow(layout, true, 100);
    const [b2, r2] = [n.at.get("begin"), n.at.get("route")];
    if (!b2 || !r2) throw new Error("placed");
    expect(edgePath(b2, r2, n)).toBe("M 50 56 C 50 84, 50 84, 50 112");
    expect(edgePath(r2, b2, n)).toBe("M 100 140 C 140 140, 140 28, 100 28");
    expect(edgeMiddle(b2, r2, n)).toEqual({ x: 50, y: 84 });
  });

  it("lights a router's edge by its outcome, any other when both ends ran", () => {
    const states = new Map([
      ["begin", "done" as const],
      ["route", "done" as const],
      ["big", "idle" as const],
    ]);
    const path = [step("route", "big")];
    expect(edgeLit({ from: "route", to: "big", outcome: "big, huge" }, states, path)).toBe(true);
    expect(edgeLit({ from: "route", to: "small", outcome: "small" }, states, path)).toBe(false);
    expect(edgeLit({ from: "begin", to: "route" }, states, path)).toBe(true);
    expect(edgeLit({ from: "route", to: "big" }, states, path)).toBe(false);
  });
});
