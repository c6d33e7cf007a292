import { afterEach, describe, expect, it } from "vitest";
import { a2aPushRenderer, wireA2aPushes } from "@/lib/protocols/a2a/push-payloads";
import type { AppliedEvent, ExecutionRow, WebhookUrls } from "@/lib/run-model/types";
import { isPushKind, pushesAny, pushRenderer, runPushes } from "@/lib/webhooks/protocol-push";
import { a2aProblems } from "../support/a2a-schema";

// The outbox knows protocol pushes only as endpoints and a renderer per protocol; A2A's renderer
// comes from lib/protocols/a2a, wired by each process that writes runs. A run with pushes of a
// protocol nobody wired must fail its write, not drop the client's updates.

const renderers = () => {
  const map = globalThis.__crewdeckPushRenderers;
  if (!map) throw new Error("the outbox's renderer map is made when it loads");
  return map;
};
afterEach(() => renderers().delete("a2a"));

const urls: WebhookUrls = { a2a: [{ id: "p1", url: "https://example.test/push" }] };
const batch = (...types: string[]) =>
  types.map((type, i) => ({ type, seq: i + 1 })) as unknown as AppliedEvent[];

const row = (over: Partial<ExecutionRow>) =>
  ({
    id: "7f0c1a9e-0000-4000-8000-000000000001",
    status: "running",
    meta: { a2a_context: "ctx-1" },
    result: null,
    error: null,
    open_reviews: [],
    ...over,
  }) as unknown as ExecutionRow;

describe("protocol pushes in the outbox", () => {
  it("a run's endpoints are listed by protocol; a delivery of a protocol's kind is a push", () => {
    expect(runPushes(urls)).toEqual([["a2a", urls.a2a]]);
    expect(runPushes({ a2a: [] })).toEqual([]);
    expect(runPushes({ crew: "https://example.test/crew" })).toEqual([]);
    expect(isPushKind("a2a")).toBe(true);
    expect(isPushKind("crew")).toBe(false);
  });

  it("with no renderer wired, a run with pushes fails loudly; one without is untouched", () => {
    expect(() => pushesAny(urls, batch("execution_started"))).toThrow(
      /a2a push endpoints, but no a2a push renderer is wired/,
    );
    expect(() => pushRenderer("a2a")).toThrow(/no a2a push renderer/);
    expect(pushesAny({}, batch("execution_started"))).toBe(false);
  });

  it("wired, A2A's renderer pushes a batch that moves the task's state, as StreamResponses", () => {
    wireA2aPushes();
    expect(pushRenderer("a2a")).toBe(a2aPushRenderer);
    expect(pushesAny(urls, batch("execution_started"))).toBe(true);
    expect(pushesAny(urls, batch("task_started", "step"))).toBe(false);
    const done = row({ status: "completed", result: "Otters hold hands." });
    const payloads = pushRenderer("a2a").payloads(done, batch("execution_completed"));
    expect(payloads).toMatchObject([
      { artifactUpdate: { taskId: done.id, contextId: "ctx-1", lastChunk: true } },
      { statusUpdate: { status: { state: "TASK_STATE_COMPLETED" } } },
    ]);
    for (const p of payloads) expect(a2aProblems("StreamResponse", p)).toEqual([]);
    expect(pushRenderer("a2a").payloads(done, batch("task_started"))).toEqual([]);
  });
});
