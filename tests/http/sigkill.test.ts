import { afterAll, describe, expect, inject, it, onTestFinished } from "vitest";
import { call, crewClient, type Json, until } from "../support/api";
import { startFakeOpenAI } from "../support/fake-openai";
import { type Proc, TEST_CREW_TOKEN } from "../support/harness";
import { startReceiver, TEST_WEBHOOK_SECRET } from "../support/receiver";
import { startTopology } from "../support/topology";

// Crashes: a worker killed with SIGKILL mid-task, or while webhooks are still owed. Another
// worker takes over once the lease runs out; nothing completed runs twice, nothing is lost.
const mode = inject("db");
const procs: Proc[] = [];
afterAll(async () => {
  await Promise.all(procs.map((p) => p.kill("SIGKILL")));
});

type Event = {
  seq: number;
  type: string;
  task_id: string | null;
  attempt: number | null;
  data: Record<string, unknown>;
};

const topology = (extraEnv: Record<string, string>) => startTopology(mode, procs, extraEnv);

async function eventsOf(url: string, crew: string, id: string): Promise<Event[]> {
  return (await crewClient(url, crew, TEST_CREW_TOKEN).events(id)).json.events;
}

describe(`SIGKILL of the worker (${mode})`, () => {
  it("mid-task: another worker re-runs that task once the lease expires; nothing lost or repeated", async () => {
    // The model answers task two's first call and holds its second while `holding`: the worker is
    // inside task two when it is killed, however fast or slow this machine is. The next worker is
    // answered throughout.
    let holding = true;
    let held = 0;
    const model = await startFakeOpenAI({
      scripted: ({ messages }) => {
        const inTwo = JSON.stringify(messages).includes("Step two");
        if (!holding || !inTwo || !messages.some((m) => m.role === "tool")) return undefined;
        held += 1;
        return "hold";
      },
    });
    onTestFinished(() => model.close());
    const t = await topology({
      DEFAULT_LLM: "openai/gpt-test",
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: "test-key",
    });
    const id = await crewClient(t.url(), "three-step", TEST_CREW_TOKEN).start({ job: "inventory" });
    // In the middle of task two: it has started and taken a step, and has not finished.
    await until(
      "task two's second model call",
      () => held,
      (n) => n > 0,
    );
    // Its tool result is written beside that call, not before it: wait until it is stored.
    const before = await until(
      "task two's tool result stored",
      () => eventsOf(t.url(), "three-step", id),
      (es) => es.some((e) => e.type === "tool_result" && e.task_id === "two"),
    );
    expect(before.some((e) => e.type === "task_completed" && e.task_id === "two")).toBe(false);

    await t.killWorker();
    holding = false;
    await t.startWorker();
    const client = crewClient(t.url(), "three-step", TEST_CREW_TOKEN);
    const done = await client.waitFor(id, (s) => s.status === "completed" || s.status === "error");

    expect(done.status).toBe("completed");
    expect(
      done.tasks.map((x: { task_id: string; attempts: number }) => [x.task_id, x.attempts]),
    ).toEqual([
      ["one", 1],
      ["two", 2],
      ["three", 1],
    ]);
    const events = await eventsOf(t.url(), "three-step", id);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    // Every event written before the kill is still there, unchanged.
    expect(events.slice(0, before.length)).toEqual(before.slice(0, before.length));
    const completed = events.filter((e) => e.type === "task_completed").map((e) => e.task_id);
    expect(completed).toEqual(["one", "two", "three"]);
    const startsOfTwo = events.filter((e) => e.type === "task_started" && e.task_id === "two");
    expect(startsOfTwo.map((e) => [e.attempt, e.data.recovered])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(events.some((e) => e.type === "execution_recovered")).toBe(true);
  });

  it("with webhooks still owed: none is lost, and a paused run stays paused across the restart", async () => {
    const rx = await startReceiver({ down: true });
    const t = await topology({
      OFFLINE_MODEL_DELAY_MS: "20",
      WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      WEBHOOK_ALLOWED_NETWORKS: "127.0.0.2/32",
      WEBHOOK_RETRY_SCHEDULE: Array.from({ length: 60 }, (_, i) => (i ? "250" : "0")).join(","),
    });
    try {
      const review = () => crewClient(t.url(), "review", TEST_CREW_TOKEN);
      const id = (
        await review().kickoff({
          inputs: { subject: "tides" },
          taskWebhookUrl: rx.url("/t"),
          stepWebhookUrl: rx.url("/s"),
        })
      ).json.kickoff_id;
      await review().waitFor(id, (s) => s.status === "pending_human_input");
      const deliveries = () =>
        call(t.url(), "GET", `/api/webhooks/deliveries?execution_id=${id}`, {
          token: TEST_CREW_TOKEN,
        }).then((r) => r.json.deliveries as Json[]);
      await until(
        "failed first attempts",
        deliveries,
        (ds) =>
          ds.length > 0 &&
          ds.every((d) => d.status !== "succeeded") &&
          ds.some((d) => d.attempts >= 1),
      );

      await t.killWorker();
      await rx.up();
      await t.startWorker();

      expect((await review().status(id)).json.status).toBe("pending_human_input");
      const ds = await until(
        "all delivered",
        deliveries,
        (d) => d.every((x) => x.status === "succeeded"),
        45_000,
      );
      expect(new Set(rx.delivered().map((r) => r.id))).toEqual(new Set(ds.map((d) => d.id)));
      expect(rx.delivered().every((r) => r.validSignature)).toBe(true);
      const owed = (await eventsOf(t.url(), "review", id)).filter((e) =>
        ["thought", "answer", "review_requested"].includes(e.type),
      );
      expect(
        rx
          .delivered()
          .map((r) => r.body.sequence)
          .sort((a: number, b: number) => a - b),
      ).toEqual(owed.map((e) => e.seq));

      // The pause survived the crash: the review still applies.
      const r = await review().resume({
        execution_id: id,
        task_id: "draft",
        human_feedback: "go",
        is_approve: true,
      });
      expect(r.json.status).toBe("resumed");
      await review().waitFor(
        id,
        (s) => s.status === "pending_human_input" && s.pending_human_input.task_id === "polish",
      );
    } finally {
      await rx.close();
    }
  });
});
