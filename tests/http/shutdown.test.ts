import { afterAll, describe, expect, inject, it } from "vitest";
import { call, crewClient, expectProblem, until } from "../support/api";
import { type Proc, TEST_CREW_TOKEN } from "../support/harness";
import { startReceiver, TEST_WEBHOOK_SECRET } from "../support/receiver";
import { startTopology } from "../support/topology";

// SIGTERM, as an orchestrator sends it: the worker stops claiming, lets what runs finish within
// SHUTDOWN_TIMEOUT_MS (or hands it back), delivers the webhooks that are due, and exits 0.
const mode = inject("db");
const procs: Proc[] = [];
afterAll(async () => {
  await Promise.all(procs.map((p) => p.kill("SIGKILL")));
});

const exitCode = (p: Proc) =>
  new Promise<number | null>((resolve) => {
    if (p.proc.exitCode !== null) resolve(p.proc.exitCode);
    else p.proc.once("exit", (code) => resolve(code));
  });

const webhookEnv = {
  WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
  WEBHOOK_ALLOWED_NETWORKS: "127.0.0.2/32",
};

describe(`SIGTERM (${mode})`, () => {
  it("finishes the running execution, flushes its webhooks, then exits 0", async () => {
    const rx = await startReceiver();
    const t = await startTopology(mode, procs, { ...webhookEnv, OFFLINE_MODEL_DELAY_MS: "60" });
    try {
      const client = crewClient(t.url(), "three-step", TEST_CREW_TOKEN);
      const id = (
        await client.kickoff({
          inputs: { job: "inventory" },
          stepWebhookUrl: rx.url("/s"),
          crewWebhookUrl: rx.url("/c"),
        })
      ).json.kickoff_id;
      await until(
        "task one under way",
        () => client.events(id).then((r) => r.json.events as { type: string }[]),
        (es) => es.some((e) => e.type === "thought"),
      );

      const worker = t.worker();
      const exited = exitCode(worker);
      worker.proc.kill("SIGTERM");
      if (mode === "embedded") {
        // The web process drains: the API sends clients elsewhere instead of starting new work.
        // (Once it has taken the signal — it says so — however long a busy machine makes that.)
        await until(
          "the signal taken",
          () => worker.output(),
          (o) => /shutting down/.test(o),
        );
        const r = await call(t.url(), "GET", `/api/crews/three-step/status/${id}`, {
          token: TEST_CREW_TOKEN,
        });
        expectProblem(r, 503);
        expect(r.headers.get("retry-after")).toBe("2");
      }
      expect(await exited).toBe(0);
      expect(worker.output()).toMatch(/Shut down cleanly/);

      // Already delivered by the time the process was gone: nothing waits for a restart.
      const crewHook = rx.delivered().find((x) => x.path === "/c");
      expect(crewHook?.body).toMatchObject({ kickoff_id: id, status: "completed" });
      expect(rx.delivered().filter((x) => x.path === "/s").length).toBeGreaterThan(3);
    } finally {
      await rx.close();
    }
  });

  it("hands back what cannot finish within SHUTDOWN_TIMEOUT_MS: the next worker resumes it at once", async () => {
    // A lease of a minute: were the run not handed back, the next worker would wait that long.
    const t = await startTopology(mode, procs, {
      OFFLINE_MODEL_DELAY_MS: "300",
      SHUTDOWN_TIMEOUT_MS: "800",
      WORKER_LEASE_MS: "60000",
    });
    const client = crewClient(t.url(), "three-step", TEST_CREW_TOKEN);
    const id = await client.start({ job: "audit" });
    await until(
      "task one under way",
      () => client.events(id).then((r) => r.json.events as { type: string }[]),
      (es) => es.some((e) => e.type === "thought"),
    );
    const worker = t.worker();
    const exited = exitCode(worker);
    const sentAt = Date.now();
    worker.proc.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(Date.now() - sentAt).toBeLessThan(30_000); // not the minute of the lease
    expect(worker.output()).toMatch(/handing back 1 execution/);

    await t.startWorker();
    const after = crewClient(t.url(), "three-step", TEST_CREW_TOKEN); // embedded: a new port
    const done = await after.waitFor(id, (s) => s.status === "completed" || s.status === "error");
    expect(done.status).toBe("completed");
    const events = (await after.events(id)).json.events as { seq: number }[];
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  });
});
