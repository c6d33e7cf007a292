import { afterAll, describe, expect, inject, it } from "vitest";
import { crewClient } from "../support/api";
import {
  FIXTURE_CREWS,
  freshPostgresDatabase,
  type Proc,
  startServer,
  startWorkerProcess,
  TEST_CREW_TOKEN,
  tempDir,
} from "../support/harness";

// A worker killed with SIGKILL in the middle of a task: once its lease runs out another worker
// re-runs that task (attempt 2) and goes on. No completed task runs twice, no event is lost or
// duplicated.
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

async function eventsOf(client: ReturnType<typeof crewClient>, id: string): Promise<Event[]> {
  return (await client.events(id)).json.events;
}

async function waitForEvent(
  client: ReturnType<typeof crewClient>,
  id: string,
  match: (e: Event) => boolean,
) {
  const start = Date.now();
  while (Date.now() - start < 30_000) {
    if ((await eventsOf(client, id)).some(match)) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("event never came");
}

describe(`SIGKILL of the worker mid-task (${mode})`, () => {
  it("another worker re-runs that task once the lease expires, and nothing is lost or repeated", async () => {
    const common = {
      CREWS_DIR: FIXTURE_CREWS,
      CREW_TOKEN: TEST_CREW_TOKEN,
      OFFLINE_MODEL_DELAY_MS: "400",
      WORKER_LEASE_MS: "1500",
      WORKER_POLL_MS: "100",
    };
    let web: Proc & { url: string };
    let victim: Proc;
    let takeOver: () => Promise<void>;
    if (mode === "postgres") {
      const DATABASE_URL = (await freshPostgresDatabase()) as string;
      const env = { ...common, DATABASE_URL, DATA_DIR: tempDir("kill") };
      web = await startServer({ ...env, RUN_WORKER: "false" });
      victim = await startWorkerProcess(env);
      procs.push(web, victim);
      takeOver = async () => {
        procs.push(await startWorkerProcess(env));
      };
    } else {
      // Embedded: the worker lives in the web process, so the whole process dies and restarts.
      const env = { ...common, DATA_DIR: tempDir("kill") };
      web = await startServer(env);
      victim = web;
      procs.push(web);
      takeOver = async () => {
        web = await startServer(env);
        procs.push(web);
      };
    }
    let client = crewClient(web.url, "three-step", TEST_CREW_TOKEN);
    const id = await client.start({ job: "inventory" });
    // In the middle of task two: it has started and taken a step, and has not finished.
    await waitForEvent(client, id, (e) => e.type === "thought" && e.task_id === "two");
    const before = await eventsOf(client, id);
    expect(before.some((e) => e.type === "task_completed" && e.task_id === "two")).toBe(false);

    await victim.kill("SIGKILL");
    await takeOver();
    client = crewClient(web.url, "three-step", TEST_CREW_TOKEN);
    const done = await client.waitFor(
      id,
      (s) => s.status === "completed" || s.status === "error",
      45_000,
    );

    expect(done.status).toBe("completed");
    expect(
      done.tasks.map((t: { task_id: string; attempts: number }) => [t.task_id, t.attempts]),
    ).toEqual([
      ["one", 1],
      ["two", 2],
      ["three", 1],
    ]);
    const events = await eventsOf(client, id);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    // Every event written before the kill is still there, unchanged.
    expect(events.slice(0, before.length)).toEqual(before);
    const completed = events.filter((e) => e.type === "task_completed").map((e) => e.task_id);
    expect(completed).toEqual(["one", "two", "three"]);
    const startsOfTwo = events.filter((e) => e.type === "task_started" && e.task_id === "two");
    expect(startsOfTwo.map((e) => [e.attempt, e.data.recovered])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(events.some((e) => e.type === "execution_recovered")).toBe(true);
  });
});
