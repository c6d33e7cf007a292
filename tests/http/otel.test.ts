import { afterAll, describe, expect, it } from "vitest";
import { crewClient, type Json, until } from "../support/api";
import {
  dbMode,
  FIXTURE_CREWS,
  freshPostgresDatabase,
  type Proc,
  startServer,
  TEST_ADMIN,
  TEST_CREW_TOKEN,
  tempDir,
} from "../support/harness";
import { type ReceivedSpan, startOtlpReceiver } from "../support/otlp-receiver";
import { startTopology } from "../support/topology";

// OpenTelemetry: with OTEL_EXPORTER_OTLP_ENDPOINT set, each execution is one trace sent over
// OTLP/HTTP — execution → task → attempt (invoke_agent) → chat / execute_tool — with the GenAI
// semantic conventions' attributes. The receiver here decodes what it gets. Prompts, completions
// and tool arguments are absent unless CREWDECK_OTEL_CAPTURE_CONTENT opts in.
const receiver = await startOtlpReceiver();
const procs: Proc[] = [];
afterAll(async () => {
  await Promise.all(procs.map((p) => p.kill("SIGKILL")));
  await receiver.close();
});

async function server(extra: Record<string, string> = {}) {
  const web = await startServer({
    CREWS_DIR: FIXTURE_CREWS,
    CREW_TOKEN: TEST_CREW_TOKEN,
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    DATA_DIR: tempDir("otel"),
    OFFLINE_MODEL_DELAY_MS: "0",
    WORKER_POLL_MS: "100",
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_HEADERS: "x-otlp-key=test-key",
    OTEL_SERVICE_NAME: "crewdeck-otel-test",
    OTEL_RESOURCE_ATTRIBUTES: "deployment.environment.name=test",
    // Export soon after a span ends, so the test need not wait for the default 5 s batch.
    OTEL_BSP_SCHEDULE_DELAY: "100",
    ...(dbMode() === "postgres" ? { DATABASE_URL: (await freshPostgresDatabase()) as string } : {}),
    ...extra,
  });
  procs.push(web);
  return web;
}

// The first two tests need the same server: one start, not two (each reads its own run's trace).
let plain: ReturnType<typeof server> | undefined;
const plainServer = () => {
  plain ??= server();
  return plain;
};

const hex = (id: string) => id.replace(/-/g, "");
const spansOf = (id: string) => receiver.spans.filter((s) => s.traceId === hex(id));
const childrenOf = (spans: ReceivedSpan[], parent: ReceivedSpan | undefined) =>
  spans.filter((s) => parent && s.parentSpanId === parent.spanId);
/**
 * Waits for the whole trace: the execution's span (written when it ends) and, under each task's
 * span, as many attempts as it had (the last attempt's span ends just after the run does).
 */
const traceOf = (id: string) =>
  until(
    `the trace of ${id}`,
    () => spansOf(id),
    (spans) => {
      const root = spans.find((s) => s.name.startsWith("crewdeck.execution "));
      const tasks = childrenOf(spans, root);
      return (
        !!root &&
        tasks.length > 0 &&
        tasks.every(
          (t) => childrenOf(spans, t).length >= Number(t.attributes["crewdeck.task.attempts"]),
        )
      );
    },
  );

describe("OpenTelemetry traces", () => {
  it("one trace per execution, the span tree and GenAI attributes; no content by default", async () => {
    const web = await plainServer();
    const brief = crewClient(web.url, "brief", TEST_CREW_TOKEN);
    const id = await brief.start({ topic: "zanzibar-otel-topic", audience: "kids" });
    await brief.waitFor(id, (s: Json) => s.status === "completed");
    const spans = await traceOf(id);

    // Exported with the standard variables: endpoint path, headers, service name, resource.
    expect(receiver.requests.some((r) => r.path === "/v1/traces")).toBe(true);
    expect(receiver.requests.every((r) => r.headers["x-otlp-key"] === "test-key")).toBe(true);
    const root = spans.find((s) => s.name === "crewdeck.execution brief");
    expect(root).toMatchObject({
      parentSpanId: "",
      attributes: {
        "crewdeck.execution.id": id,
        "crewdeck.crew": "brief",
        "crewdeck.execution.status": "completed",
      },
      resource: {
        "service.name": "crewdeck-otel-test",
        "deployment.environment.name": "test",
      },
    });

    const tasks = childrenOf(spans, root);
    expect(tasks.map((s) => s.name).sort()).toEqual([
      "crewdeck.task research",
      "crewdeck.task write",
    ]);
    for (const task of tasks) {
      const attempts = childrenOf(spans, task);
      expect(attempts).toHaveLength(1);
      const attempt = attempts[0] as ReceivedSpan;
      expect(attempt.attributes).toMatchObject({
        "gen_ai.operation.name": "invoke_agent",
        "crewdeck.task.attempt": 1,
        "crewdeck.task.status": "completed",
      });
      const calls = childrenOf(spans, attempt);
      const chats = calls.filter((s) => s.attributes["gen_ai.operation.name"] === "chat");
      expect(chats.length).toBeGreaterThan(0);
      for (const chat of chats) {
        expect(chat.kind).toBe(3); // CLIENT
        expect(chat.attributes).toMatchObject({
          "gen_ai.system": "offline",
          "gen_ai.request.model": expect.any(String),
          "gen_ai.usage.input_tokens": expect.any(Number),
          "gen_ai.usage.output_tokens": expect.any(Number),
        });
        expect(chat.name).toBe(`chat ${chat.attributes["gen_ai.request.model"]}`);
      }
      // The writer has the word_count tool and the offline model calls it once.
      if (task.name === "crewdeck.task write") {
        const tool = calls.find((s) => s.name === "execute_tool word_count");
        expect(tool?.attributes).toMatchObject({
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": "word_count",
          "gen_ai.tool.call.id": expect.any(String),
        });
      }
    }
    // Every span of the run is in the tree under the root.
    const reachable = new Set([root?.spanId]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const s of spans)
        if (!reachable.has(s.spanId) && reachable.has(s.parentSpanId)) {
          reachable.add(s.spanId);
          grew = true;
        }
    }
    expect(spans.filter((s) => !reachable.has(s.spanId))).toEqual([]);

    // Nothing the run was given or produced is in the spans.
    const all = JSON.stringify(spans);
    expect(all).not.toContain("zanzibar-otel-topic");
    expect(all).not.toContain("gen_ai.input.messages");
    expect(all).not.toContain("gen_ai.tool.call.arguments");
  });

  it("a task sent back and approved across worker claims: its attempts share the task's span", async () => {
    const web = await plainServer();
    const review = crewClient(web.url, "review", TEST_CREW_TOKEN);
    const id = await review.start({ subject: "otters" });
    const paused = (task: string, attempt: number) => (s: Json) =>
      s.status === "pending_human_input" &&
      s.pending_human_input?.task_id === task &&
      s.pending_human_input.attempt === attempt;
    await review.waitFor(id, paused("draft", 1));
    const decide = (task_id: string, is_approve: boolean) =>
      review.resume({ execution_id: id, task_id, human_feedback: "Noted.", is_approve });
    expect((await decide("draft", false)).status).toBe(200);
    await review.waitFor(id, paused("draft", 2));
    expect((await decide("draft", true)).status).toBe(200);
    await review.waitFor(id, paused("polish", 1));
    expect((await decide("polish", true)).status).toBe(200);
    await review.waitFor(id, (s: Json) => s.status === "completed");

    const spans = await traceOf(id);
    const root = spans.find((s) => s.name === "crewdeck.execution review");
    const draft = childrenOf(spans, root).find((s) => s.name === "crewdeck.task draft");
    expect(draft?.attributes["crewdeck.task.attempts"]).toBe(2);
    const attempts = childrenOf(spans, draft);
    expect(attempts.map((a) => a.attributes["crewdeck.task.attempt"]).sort()).toEqual([1, 2]);
    // The task's span starts with its first attempt and ends after its last.
    const first = attempts.reduce((a, b) =>
      BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? a : b,
    );
    expect(BigInt(draft?.startTimeUnixNano ?? 0)).toBeLessThanOrEqual(
      BigInt(first.startTimeUnixNano),
    );
  });

  it("with CREWDECK_OTEL_CAPTURE_CONTENT=true, prompts, completions and tool arguments are in the spans", async () => {
    const web = await server({ CREWDECK_OTEL_CAPTURE_CONTENT: "true" });
    const brief = crewClient(web.url, "brief", TEST_CREW_TOKEN);
    const id = await brief.start({ topic: "zanzibar-captured-topic", audience: "kids" });
    await brief.waitFor(id, (s: Json) => s.status === "completed");
    const spans = await traceOf(id);
    const chat = spans.find((s) => s.attributes["gen_ai.operation.name"] === "chat");
    expect(String(chat?.attributes["gen_ai.input.messages"])).toContain("zanzibar-captured-topic");
    expect(chat?.attributes["gen_ai.output.messages"]).toEqual(expect.any(String));
    const tool = spans.find((s) => s.name === "execute_tool word_count");
    expect(tool?.attributes["gen_ai.tool.call.arguments"]).toEqual(expect.any(String));
    expect(tool?.attributes["gen_ai.tool.call.result"]).toEqual(expect.any(String));
  });
});

describe("a run taken over by another worker", () => {
  it("after a SIGKILL mid-task, the new worker's attempt is in the same trace, under the same task span", async () => {
    // The first worker's model takes an hour a step: whenever the test looks, it is mid-task one.
    const t = await startTopology(dbMode(), procs, {
      OFFLINE_MODEL_DELAY_MS: "3600000",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: "100",
    });
    const crew = crewClient(t.url(), "three-step", TEST_CREW_TOKEN);
    const id = await crew.start({ job: "inventory" });
    await until(
      "task one in progress",
      async () => (await crew.events(id)).json.events as { type: string; task_id: string }[],
      (es) => es.some((e) => e.type === "task_started" && e.task_id === "one"),
    );
    await t.killWorker();
    await t.startWorker({ OFFLINE_MODEL_DELAY_MS: "0" });
    const done = await crewClient(t.url(), "three-step", TEST_CREW_TOKEN).waitFor(
      id,
      (s: Json) => s.status === "completed" || s.status === "error",
    );
    expect(done.status).toBe("completed");

    // (Not traceOf: the killed worker's attempt never ended, so it is never sent.)
    const taskOne = (spans: ReceivedSpan[]) => {
      const root = spans.find((s) => s.name === "crewdeck.execution three-step");
      return childrenOf(spans, root).find((s) => s.name === "crewdeck.task one");
    };
    const spans = await until(
      "the retried attempt's span",
      () => spansOf(id),
      (all) =>
        childrenOf(all, taskOne(all)).some((s) => s.attributes["crewdeck.task.attempt"] === 2),
    );
    const one = taskOne(spans);
    expect(one?.attributes["crewdeck.task.attempts"]).toBe(2);
    // The killed worker's attempt never ended (so was never sent); the new one's names the
    // task's span, derived from the execution's id, as its parent.
    const retried = childrenOf(spans, one).find((s) => s.attributes["crewdeck.task.attempt"] === 2);
    expect(retried?.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "crewdeck.task.status": "completed",
    });
    expect(
      childrenOf(spans, retried).some((s) => s.attributes["gen_ai.operation.name"] === "chat"),
    ).toBe(true);
  });
});
