import { describe, expect, inject, it } from "vitest";
import { call, crewClient, expectProblem, type Json } from "../support/api";
import { TEST_CREW_TOKEN } from "../support/harness";

// Starting a run again with edits: the origin's inputs with some changed, some agents on another
// model (the loopback OpenAI the suite's server points at), linked both ways.
const baseUrl = inject("baseUrl");
const brief = crewClient(baseUrl, "brief", TEST_CREW_TOKEN);
const rerun = (id: string, body: unknown) =>
  call(baseUrl, "POST", `/api/crews/brief/executions/${id}/rerun`, {
    token: TEST_CREW_TOKEN,
    body,
  });
const done = (s: Json) => ["completed", "error", "cancelled"].includes(s.status);

describe("POST /executions/{id}/rerun", () => {
  it("runs the origin's inputs with one changed, on another model, and says where it came from", async () => {
    const origin = await brief.start({ topic: "tides", audience: "sailors" });
    const first = await brief.waitFor(origin, done);
    expect(first.status, JSON.stringify(first)).toBe("completed");
    expect(first.cost.models).toEqual(["offline"]);

    const r = await rerun(origin, {
      inputs: { topic: "harbours" },
      models: { "*": "openai/gpt-4o-mini" },
      meta: { why: "what if" },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.origin_id).toBe(origin);
    const again = await brief.waitFor(r.json.kickoff_id, done);
    expect(again.status, JSON.stringify(again)).toBe("completed");
    expect(again.inputs).toEqual({ topic: "harbours", audience: "sailors" });
    expect(again.meta).toEqual({ why: "what if" });
    expect(again.origin).toEqual({ execution_id: origin, kind: "rerun" });
    expect(again.cost.models).toEqual(["openai/gpt-4o-mini"]);
    // The first event says it too; the origin itself is unchanged.
    const events = (await brief.events(r.json.kickoff_id)).json.events as Json[];
    expect(events[0]).toMatchObject({
      type: "execution_queued",
      data: { origin: { execution_id: origin, kind: "rerun" } },
    });
    expect((await brief.status(origin)).json.origin).toBeNull();

    // The origin lists its re-runs, with what changed.
    const list = await call(baseUrl, "GET", `/api/crews/brief/executions/${origin}/reruns`, {
      token: TEST_CREW_TOKEN,
    });
    expect(list.status, list.text).toBe(200);
    expect(list.json.reruns).toEqual([
      expect.objectContaining({
        execution_id: r.json.kickoff_id,
        kind: "rerun",
        status: "completed",
        changed_inputs: ["topic"],
      }),
    ]);
  });

  it("keeps the origin's meta and inputs when nothing is changed; one agent alone changes model", async () => {
    const origin = await brief.start({ topic: "kelp", audience: "divers" });
    await brief.waitFor(origin, done);
    const r = await rerun(origin, { models: { writer: "openai/gpt-4o-mini" } });
    expect(r.status, r.text).toBe(200);
    const again = await brief.waitFor(r.json.kickoff_id, done);
    expect(again.inputs).toEqual({ topic: "kelp", audience: "divers" });
    // Each step records the model it ran on: the researcher stays offline, the writer moved.
    const steps = (await brief.events(r.json.kickoff_id)).json.events as Json[];
    const modelsOf = (task: string) =>
      new Set(steps.filter((e) => e.task_id === task && e.data.model).map((e) => e.data.model));
    expect([...modelsOf("research")]).toEqual(["offline"]);
    expect([...modelsOf("write")]).toEqual(["openai/gpt-4o-mini"]);
  });

  it("refuses, on the field, a model it cannot use or an agent the crew lacks; nothing is started", async () => {
    const origin = await brief.start({ topic: "reefs", audience: "divers" });
    await brief.waitFor(origin, done);
    const unknownAgent = await rerun(origin, { models: { editor: "offline" } });
    expectProblem(unknownAgent, 422);
    expect(unknownAgent.json.errors).toEqual([
      { path: "models.editor", message: expect.stringContaining("no agent 'editor'") },
    ]);
    const noKey = await rerun(origin, { models: { "*": "anthropic/claude-sonnet-4" } });
    expectProblem(noKey, 422);
    expect(noKey.json.errors[0]).toMatchObject({ path: "models.*" });
    expect(noKey.json.errors[0].message).toMatch(/ANTHROPIC_API_KEY/);
    expectProblem(await rerun(origin, { models: { "*": 42 } }), 400);
    expectProblem(await rerun(origin, { inputs: { topic: "" } }), 422);
    expectProblem(await rerun("00000000-0000-4000-8000-000000000000", {}), 404);
    const list = await call(baseUrl, "GET", `/api/crews/brief/executions/${origin}/reruns`, {
      token: TEST_CREW_TOKEN,
    });
    expect(list.json.reruns).toEqual([]);
  });
});
