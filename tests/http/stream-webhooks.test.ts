import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { StreamWebhookSchema } from "@/lib/contract/webhooks";
import { crewClient, expectProblem, type Json, until } from "../support/api";
import { TEST_CREW_TOKEN } from "../support/harness";
import { startReceiver } from "../support/receiver";

// CrewAI AMP's kickoff `webhooks` object: the listed events, under CrewAI's names, POSTed as
// `{"events": [...]}` through the same outbox as the three URLs.
const baseUrl = inject("baseUrl");
const crew = crewClient(baseUrl, "three-step", TEST_CREW_TOKEN);
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

/** Every streamed event that reached `path` (once per webhook-id), in the order they were sent. */
const streamedTo = (path: string) =>
  receiver
    .delivered()
    .filter((r) => r.path === path)
    .flatMap((r) => r.body.events as Json[]);

describe("kickoff `webhooks`: streamed events", () => {
  it("realtime: each listed event in its own POST, with the bearer token, beside taskWebhookUrl", async () => {
    const r = await crew.kickoff({
      inputs: { job: "otters" },
      taskWebhookUrl: receiver.url("/task"),
      webhooks: {
        events: ["task_completed", "crew_kickoff_completed"],
        url: receiver.url("/realtime"),
        realtime: true,
        authentication: { strategy: "bearer", token: "stream-token-123" },
      },
    });
    expect(r.status, r.text).toBe(200);
    const run = r.json.kickoff_id as string;
    await until(
      "the crew_kickoff_completed event",
      () => streamedTo("/realtime"),
      (events) => events.some((e) => e.type === "crew_kickoff_completed"),
    );
    const posts = receiver.delivered().filter((p) => p.path === "/realtime");
    for (const p of posts) {
      expect(p.attemptHeaders.authorization).toBe("Bearer stream-token-123");
      expect(p.validSignature).toBe(true);
      expect(p.body.events).toHaveLength(1);
      // The body keeps the contract the OpenAPI document publishes.
      expect(StreamWebhookSchema.safeParse(p.body).error?.issues).toBeUndefined();
    }
    const events = streamedTo("/realtime");
    expect(events.map((e) => `${e.type}:${e.data.task_id ?? ""}`)).toEqual([
      "task_completed:one",
      "task_completed:two",
      "task_completed:three",
      "crew_kickoff_completed:",
    ]);
    for (const e of events) {
      expect(e).toMatchObject({ execution_id: run, id: `${run}:${e.sequence}` });
      expect(Number.isNaN(Date.parse(e.timestamp))).toBe(false);
    }
    expect(events.at(-1)?.data.output).toEqual(expect.any(String));
    // The task URL still gets CrewAI's task bodies, unchanged.
    const tasks = await until(
      "the three task webhooks",
      () => receiver.delivered().filter((p) => p.path === "/task"),
      (list) => list.length === 3,
    );
    expect(tasks.map((t) => t.body.task_id)).toEqual(["one", "two", "three"]);
    expect(tasks[0]?.attemptHeaders.authorization).toBeUndefined();
  });

  it("batched (realtime false): every listed event once and in order, nothing unlisted, no token", async () => {
    const listed = ["llm_call_completed", "tool_usage_started", "tool_usage_finished"];
    const r = await crew.kickoff({
      inputs: { job: "tides" },
      webhooks: { events: [...listed, "crew_kickoff_completed"], url: receiver.url("/batched") },
    });
    expect(r.status, r.text).toBe(200);
    const run = r.json.kickoff_id as string;
    await until(
      "the crew_kickoff_completed event",
      () => streamedTo("/batched"),
      (events) => events.some((e) => e.type === "crew_kickoff_completed"),
    );
    const events = streamedTo("/batched");
    expect(events.map((e) => e.sequence)).toEqual(
      [...new Set(events.map((e) => e.sequence))].sort((a, b) => a - b),
    );
    expect(new Set(events.map((e) => e.type))).toEqual(
      new Set([...listed, "crew_kickoff_completed"]),
    );
    // Exactly the run's events that map to a listed name: compare with its log.
    const log = (await crew.events(run)).json.events as Json[];
    const expected = log.filter((e) =>
      ["thought", "answer", "tool_call", "tool_result", "execution_completed"].includes(e.type),
    );
    expect(events.map((e) => e.sequence)).toEqual(expected.map((e) => e.seq));
    const tool = events.find((e) => e.type === "tool_usage_finished");
    expect(tool?.data).toMatchObject({ tool_name: "word_count" });
    for (const p of receiver.delivered().filter((x) => x.path === "/batched"))
      expect(p.attemptHeaders.authorization).toBeUndefined();
  });

  it("a private address is refused as for the other webhook URLs", async () => {
    const r = await crew.kickoff({
      inputs: { job: "x" },
      webhooks: { events: ["task_completed"], url: "http://10.20.30.40/hook" },
    });
    expectProblem(r, 400);
    expect(r.json.errors).toEqual([
      { path: "webhooks.url", message: expect.stringMatching(/^refused: .*private/) },
    ]);
  });

  it.each([
    [
      "an event name CrewAI has but our engine never emits",
      { events: ["flow_started", "task_completed"], url: "http://127.0.0.2:9/h" },
      "webhooks.events",
      /unknown event 'flow_started'; valid events: crew_kickoff_started, .*task_completed/,
    ],
    [
      "events not a list",
      { events: "task_completed", url: "http://127.0.0.2:9/h" },
      "webhooks.events",
      /must be a list of event names/,
    ],
    [
      "no events at all",
      { events: [], url: "http://127.0.0.2:9/h" },
      "webhooks.events",
      /at least one event/,
    ],
    [
      "a URL that is not http(s)",
      { events: ["task_completed"], url: "ftp://127.0.0.2/h" },
      "webhooks.url",
      /http:\/\/ or https:\/\//,
    ],
    [
      "an authentication strategy other than bearer",
      {
        events: ["task_completed"],
        url: "http://127.0.0.2:9/h",
        authentication: { strategy: "hmac", token: "t" },
      },
      "webhooks.authentication.strategy",
      /must be "bearer"/,
    ],
    [
      "realtime not a boolean",
      { events: ["task_completed"], url: "http://127.0.0.2:9/h", realtime: "yes" },
      "webhooks.realtime",
      /true or false/,
    ],
    ["webhooks not an object", "http://127.0.0.2:9/h", "webhooks", /must be an object/],
  ])("malformed webhooks: %s → 400 naming the field", async (_, webhooks, path, message) => {
    const r = await crew.kickoff({ inputs: { job: "x" }, webhooks });
    expectProblem(r, 400);
    const problem = (r.json.errors as Json[]).find((e) => e.path === path);
    expect(problem?.message, r.text).toMatch(message);
  });
});
