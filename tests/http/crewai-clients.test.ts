import { describe, expect, inject, it } from "vitest";
import { call, crewClient, type Json } from "../support/api";
import { CREWAI_CLIENTS, type CrewAIClient } from "../support/crewai-clients";
import { publishedSchemaErrors } from "../support/crewai-published-schemas";
import { TEST_CREW_TOKEN } from "../support/harness";

// Programs written for CrewAI's deployed-crew API, pointed at Crewdeck unchanged: each one's
// requests replayed as it sends them, our answers read the way it reads them.
const baseUrl = inject("baseUrl");
const endpoint = (crew: string) => ({
  url: `${baseUrl}/api/crews/${crew}`,
  token: TEST_CREW_TOKEN,
});

/** Polls with the client's own parsing until the client would stop polling. */
async function waitAsClient(client: CrewAIClient, id: string, timeoutMs = 30_000) {
  const start = Date.now();
  for (;;) {
    const s = await client.status(id);
    if (s.finished) return s;
    if (Date.now() - start > timeoutMs) throw new Error(`${client.name}: still ${s.state}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(CREWAI_CLIENTS.map((make) => [make(endpoint("brief")).name, make] as const))(
  "%s",
  (_name, make) => {
    it("kicks off with null callbacks and gets the crew's output", async () => {
      const client = make(endpoint("brief"));
      const id = await client.kickoff({ topic: "otters", audience: "children" });
      const done = await waitAsClient(client, id);
      const final = (await crewClient(baseUrl, "brief", TEST_CREW_TOKEN).status(id)).json;
      expect(final.status).toBe("completed");
      expect(client.outcome(done)).toEqual({ value: final.tasks[1].output });
    });

    it("sees a failed run as finished, with the reason where it reads one", async () => {
      const client = make(endpoint("failing-model"));
      const id = await client.kickoff({});
      const done = await waitAsClient(client, id);
      const final = (await crewClient(baseUrl, "failing-model", TEST_CREW_TOKEN).status(id)).json;
      expect(final.status).toBe("error");
      expect(done.result).toBe(final.error);
      const outcome = client.outcome(done);
      // Semantic Kernel Python returns a failure's text as its output (see crewai-clients.ts).
      const text = "error" in outcome ? outcome.error : outcome.value;
      expect(text).toContain(final.error);
    });

    it("keeps polling, without an error, while a run awaits review; a stopped run ends it", async () => {
      const client = make(endpoint("review"));
      const ours = crewClient(baseUrl, "review", TEST_CREW_TOKEN);
      const id = await client.kickoff({ subject: "herons" });
      await ours.waitFor(id, (s) => s.status === "pending_human_input");
      const paused = await client.status(id);
      expect(paused.finished).toBe(false);
      expect((await ours.stop(id)).status).toBe(200);
      const stopped = await client.status(id);
      expect(stopped.finished).toBe(true);
      expect(stopped.result).toBe("Stopped on request.");
      expect(client.outcome(stopped)).not.toHaveProperty("value", "");
    });
  },
);

describe("answers against CrewAI's published schemas", () => {
  const brief = crewClient(baseUrl, "brief", TEST_CREW_TOKEN);
  const review = crewClient(baseUrl, "review", TEST_CREW_TOKEN);

  it("/inputs, /kickoff and a completed /status", async () => {
    expect(publishedSchemaErrors("inputs", (await brief.inputs()).json)).toEqual([]);
    const kickoff = await brief.kickoff({ inputs: { topic: "a", audience: "b" } });
    expect(publishedSchemaErrors("kickoff", kickoff.json)).toEqual([]);
    const done = await brief.waitFor(kickoff.json.kickoff_id, (s) => s.status === "completed");
    // The one deliberate difference: the spec's `result` object is `crew_output`, because every
    // client reads `result` as a string.
    expect(typeof done.result).toBe("string");
    expect(publishedSchemaErrors("status", { ...done, result: done.crew_output })).toEqual([]);
    expect(done.crew_output).toEqual({
      output: done.result,
      tasks: done.tasks.map((t: Json) => ({
        task_id: t.task_id,
        output: t.output,
        agent: t.agent,
        execution_time: t.execution_time,
      })),
    });
  });

  it("a running and a failed /status", async () => {
    const id = await review.start({ subject: "storks" });
    const paused = await review.waitFor(id, (s) => s.status === "pending_human_input");
    // Awaiting review is running to CrewAI, and said so in `state`, not `status`.
    expect(publishedSchemaErrors("status", { ...paused, status: "running" })).toEqual([]);
    const failing = crewClient(baseUrl, "failing-model", TEST_CREW_TOKEN);
    const failed = await failing.waitFor(await failing.start({}), (s) => s.status === "error");
    expect(publishedSchemaErrors("status", failed)).toEqual([]);
    await review.stop(id);
  });

  it("errors: 401, 404, 422 with details.missing_inputs, /resume 200, 400 and 404", async () => {
    const unauthorized = await call(baseUrl, "GET", "/api/crews/brief/inputs", { token: "nope" });
    expect(unauthorized.status).toBe(401);
    expect(publishedSchemaErrors("error", unauthorized.json)).toEqual([]);
    expect(unauthorized.json).toMatchObject({ error: "Unauthorized" });

    const missing = await brief.kickoff({ inputs: { topic: "a" } });
    expect(missing.status).toBe(422);
    expect(publishedSchemaErrors("validationError", missing.json)).toEqual([]);
    expect(missing.json).toMatchObject({
      error: "Validation Error",
      message: missing.json.detail,
      details: { missing_inputs: ["audience"] },
    });

    const unknown = await brief.status("00000000-0000-4000-8000-000000000000");
    expect(unknown.status).toBe(404);
    expect(publishedSchemaErrors("error", unknown.json)).toEqual([]);
    expect(unknown.json).toMatchObject({ error: "Not Found" });

    const id = await review.start({ subject: "cranes" });
    await review.waitFor(id, (s) => s.status === "pending_human_input");
    const decide = (task_id: string) =>
      review.resume({ execution_id: id, task_id, human_feedback: "ok", is_approve: true });
    const notWaiting = await decide("polish");
    expect(notWaiting.status).toBe(400);
    expect(publishedSchemaErrors("error", notWaiting.json)).toEqual([]);
    const noTask = await decide("nope");
    expect(noTask.status).toBe(404);
    expect(publishedSchemaErrors("error", noTask.json)).toEqual([]);
    const resumed = await decide("draft");
    expect(resumed.status).toBe(200);
    expect(publishedSchemaErrors("resume", resumed.json)).toEqual([]);
    await review.stop(id);
  });
});
