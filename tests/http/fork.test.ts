import { describe, expect, inject, it } from "vitest";
import { call, crewClient, expectProblem, type Json } from "../support/api";
import { TEST_CREW_TOKEN } from "../support/harness";

// Forking a run from a task: the tasks before it are taken from the origin (never run again),
// one edited first and recorded in the ledger as a reviewer's edit is.
const baseUrl = inject("baseUrl");
const brief = crewClient(baseUrl, "brief", TEST_CREW_TOKEN);
const fork = (id: string, body: unknown) =>
  call(baseUrl, "POST", `/api/crews/brief/executions/${id}/fork`, { token: TEST_CREW_TOKEN, body });
const done = (s: Json) => ["completed", "error", "cancelled"].includes(s.status);
const EDIT = "Edited findings: tides follow the moon, twice a day.";

describe("POST /executions/{id}/fork", () => {
  it("starts at task 2 with task 1's output edited; task 1 is never run again; the ledger has it", async () => {
    const origin = await brief.start({ topic: "tides", audience: "sailors" });
    const first = await brief.waitFor(origin, done);
    expect(first.status).toBe("completed");

    const r = await fork(origin, {
      from_task: "write",
      edit: { task_id: "research", output: EDIT },
    });
    expect(r.status, r.text).toBe(200);
    const id = r.json.kickoff_id as string;
    const forked = await brief.waitFor(id, done);
    expect(forked.status, JSON.stringify(forked)).toBe("completed");
    expect(forked.origin).toEqual({ execution_id: origin, kind: "fork" });
    expect(forked.inputs).toEqual(first.inputs);
    const research = forked.tasks.find((t: Json) => t.task_id === "research");
    expect(research).toMatchObject({ status: "completed", output: EDIT, execution_time: 0 });
    // It cost nothing here: only task 2's tokens are the fork's.
    expect(research.token_usage.total_tokens ?? 0).toBe(0);
    expect(forked.token_usage.total_tokens).toBeLessThan(first.token_usage.total_tokens);

    // Task 1 is inherited (an event naming the origin), never started here; task 2 ran.
    const events = (await brief.events(id)).json.events as Json[];
    const ofResearch = events.filter((e) => e.task_id === "research").map((e) => e.type);
    expect(ofResearch).toEqual(["task_inherited"]);
    expect(events.find((e) => e.type === "task_inherited")?.data).toMatchObject({
      from: origin,
      edited: true,
      edited_output: EDIT,
      output: first.tasks[0].output,
    });
    expect(events.some((e) => e.type === "task_started" && e.task_id === "write")).toBe(true);

    // The ledger records the edit, chained and intact.
    const ledger = await call(baseUrl, "GET", `/api/crews/brief/executions/${id}/ledger`, {
      token: TEST_CREW_TOKEN,
    });
    expect(ledger.status, ledger.text).toBe(200);
    expect(ledger.json.entries[0]).toMatchObject({
      action: "task_inherited",
      task_id: "research",
      effect: "inherited_edited",
      decision: { from_execution: origin, edited: true },
    });
    const verdict = await call(baseUrl, "GET", `/api/crews/brief/executions/${id}/ledger/verify`, {
      token: TEST_CREW_TOKEN,
    });
    expect(verdict.json.ok, verdict.text).toBe(true);

    // The origin lists its fork.
    const list = await call(baseUrl, "GET", `/api/crews/brief/executions/${origin}/reruns`, {
      token: TEST_CREW_TOKEN,
    });
    expect(list.json.reruns).toEqual([
      expect.objectContaining({ execution_id: id, kind: "fork", changed_inputs: [] }),
    ]);
  });

  it("refuses a fork that would inherit nothing, an unknown task, or an edit it would not keep", async () => {
    const origin = await brief.start({ topic: "reefs", audience: "divers" });
    await brief.waitFor(origin, done);
    const firstTask = await fork(origin, { from_task: "research" });
    expectProblem(firstTask, 422);
    expect(firstTask.json.errors[0].path).toBe("from_task");
    expectProblem(await fork(origin, { from_task: "polish" }), 422);
    const laterEdit = await fork(origin, {
      from_task: "write",
      edit: { task_id: "write", output: "x" },
    });
    expectProblem(laterEdit, 422);
    expect(laterEdit.json.errors[0].path).toBe("edit.task_id");
    // Missing is 422 (naming it); the wrong type is 400.
    expect((await fork(origin, {})).json.missing_fields).toEqual(["from_task"]);
    expectProblem(await fork(origin, { from_task: 5 }), 400);
    const list = await call(baseUrl, "GET", `/api/crews/brief/executions/${origin}/reruns`, {
      token: TEST_CREW_TOKEN,
    });
    expect(list.json.reruns).toEqual([]);
  });

  it("refuses to inherit a task the origin did not complete", async () => {
    const review = crewClient(baseUrl, "review", TEST_CREW_TOKEN);
    const origin = await review.start({ subject: "forks" });
    await review.waitFor(origin, (s) => s.status === "pending_human_input");
    await review.stop(origin);
    const r = await call(baseUrl, "POST", `/api/crews/review/executions/${origin}/fork`, {
      token: TEST_CREW_TOKEN,
      body: { from_task: "polish" },
    });
    expectProblem(r, 422);
    expect(r.json.detail).toMatch(/'draft' had not completed/);
  });

  it("forks a flow from a method: the path before it is inherited, one output edited", async () => {
    const flow = crewClient(baseUrl, "release-flow", TEST_CREW_TOKEN);
    const origin = await flow.start({ product: "Deck", changes: ["fix login", "add export"] });
    // The origin ran collect, classify (minor), lines, then draft, whose crew waits for review.
    await flow.waitFor(origin, (x) => x.pending_human_input?.task_id === "notes");
    const forkFlow = (body: unknown) =>
      call(baseUrl, "POST", `/api/crews/release-flow/executions/${origin}/fork`, {
        token: TEST_CREW_TOKEN,
        body,
      });
    const r = await forkFlow({
      from_task: "draft",
      edit: { task_id: "lines", output: "- login fixed\n- export added" },
    });
    expect(r.status, r.text).toBe(200);
    const id = r.json.kickoff_id as string;
    const forked = await flow.waitFor(id, (x) => x.pending_human_input?.task_id === "notes");
    expect(forked.origin).toEqual({ execution_id: origin, kind: "fork" });
    expect(forked.flow.path.map((p: Json) => [p.method, p.outcome])).toEqual([
      ["collect", null],
      ["classify", "minor"],
      ["lines", null],
    ]);
    expect(forked.flow.state).toMatchObject({ product: "Deck" });
    // Inherited methods never ran here; the edited output is what draft's crew was given.
    const events = (await flow.events(id)).json.events as Json[];
    expect(events.filter((e) => e.type === "task_started").map((e) => e.task_id)).not.toContain(
      "collect",
    );
    expect(
      events.filter((e) => e.type === "task_inherited").map((e) => [e.task_id, !!e.data.edited]),
    ).toEqual([
      ["collect", false],
      ["classify", false],
      ["lines", true],
    ]);
    expect(forked.flow.current).toMatchObject({ method: "draft", nested_run: expect.any(String) });
    const draft = await flow.status(forked.flow.current.nested_run);
    expect(JSON.stringify(draft.json.inputs)).toContain("login fixed");
    // A method that did not run, and the first one, cannot be forked from.
    expectProblem(await forkFlow({ from_task: "publish_notes" }), 422);
    expectProblem(await forkFlow({ from_task: "collect" }), 422);
    await Promise.all([flow.stop(origin), flow.stop(id)]);
  });
});
