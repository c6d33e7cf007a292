import { describe, expect, it } from "vitest";
import type { FlowPlan } from "@/lib/crew/flow-plan";
import {
  afterMethod,
  FlowLoopError,
  type FlowProgress,
  initialProgress,
  startNext,
} from "@/lib/run-model/flow-progress";
import { flowMethod as method, flowPlan as plan } from "../support/flow-plans";

// Which methods a finished one sets off, as CrewAI's runtime decides (_find_triggered_methods,
// _condition_satisfied, max_method_calls): on the progress alone, no database.

const queued = (p: FlowProgress) => p.queue.map((q) => q.method);
/** Runs the queue's head and ends it (with `outcome`), as the runner does. */
function step(f: FlowPlan, p: FlowProgress, outcome?: string) {
  const started = startNext(f, p, new Date());
  const name = started.current?.method as string;
  return afterMethod(
    f,
    { ...started, current: null, completed: [...started.completed, name] },
    name,
    outcome,
  );
}

describe("a flow's triggers", () => {
  it("starts the unconditional starts; conditional ones only when there are none", () => {
    const f = plan([
      method("a", { start: true }),
      method("b", { start: "go" }),
      method("c", { start: true }),
    ]);
    expect(queued(initialProgress(f, {}))).toEqual(["a", "c"]);
    expect(queued(initialProgress(plan([method("b", { start: "go" })]), {}))).toEqual(["b"]);
  });

  it("queues routers before listeners, and an outcome's listeners after", () => {
    const f = plan([
      method("a", { start: true }),
      method("l", { listen: "a" }),
      method("r", { listen: "a", router: true, emit: ["yes", "no"] }),
      method("y", { listen: "yes" }),
      method("n", { listen: "no" }),
    ]);
    let p = step(f, initialProgress(f, {}));
    expect(queued(p)).toEqual(["r", "l"]);
    p = step(f, p, "yes");
    expect(queued(p)).toEqual(["l", "y"]);
  });

  it("runs an `and` once all its events came, an `or` once per cycle", () => {
    const f = plan([
      method("a", { start: true }),
      method("b", { listen: "a" }),
      method("c", { listen: "a" }),
      method("both", { listen: { and: ["b", "c"] } }),
      method("either", { listen: { or: ["b", "c"] } }),
    ]);
    let p = step(f, initialProgress(f, {})); // a
    p = step(f, p); // b
    expect(queued(p)).toEqual(["c", "either"]);
    p = step(f, p); // c: both now; either fired already this cycle
    expect(queued(p)).toEqual(["either", "both"]);
  });

  it("stops a listener that runs past max_method_calls, with CrewAI's words", () => {
    const f = plan(
      [
        method("a", { start: true }),
        method("again", { listen: { or: ["a", "loop"] }, router: true, emit: ["loop"] }),
      ],
      2,
    );
    let p = step(f, initialProgress(f, {}));
    p = step(f, p, "loop");
    p = step(f, p, "loop");
    expect(() => startNext(f, p, new Date())).toThrow(FlowLoopError);
    expect(() => startNext(f, p, new Date())).toThrow(
      "Method 'again' has been called 2 times in this flow execution",
    );
  });

  it("starts a conditional start when a router emits its event", () => {
    const f = plan([
      method("a", { start: true, router: true, emit: ["retry"] }),
      method("b", { start: "retry" }),
    ]);
    expect(queued(step(f, initialProgress(f, {}), "retry"))).toEqual(["b"]);
  });
});
