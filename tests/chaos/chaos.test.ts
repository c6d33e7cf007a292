import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { webhookKind } from "@/lib/webhooks/payloads";
import { call, type Json } from "../support/api";
import {
  ensureBuild,
  FIXTURE_CREWS,
  ownPostgres,
  type Proc,
  startServer,
  startWorkerProcess,
  TEST_CREW_TOKEN,
  tempDir,
} from "../support/harness";
import { startReceiver, TEST_WEBHOOK_SECRET } from "../support/receiver";
import { queryAs } from "../support/rows";

// Two web instances and two workers on one PostgreSQL; EXECUTIONS runs, a third of them with two
// review steps that a reviewer sends back once and then approves; a worker SIGKILLed every
// KILL_EVERY_MS; PostgreSQL stopped for OUTAGE_MS in the middle; a receiver that fails one
// delivery in ten. Then: everything finished, nothing ran twice, no event lost or repeated, every
// webhook delivered. `npm run test:chaos` runs the full size; `npm test` a short one.
const EXECUTIONS = Number(process.env.CHAOS_EXECUTIONS ?? 200);
const KILL_EVERY_MS = Number(process.env.CHAOS_KILL_EVERY_MS ?? 3_000);
const OUTAGE_MS = Number(process.env.CHAOS_OUTAGE_MS ?? 10_000);
const DEADLINE_MS = Number(process.env.CHAOS_DEADLINE_MS ?? 300_000);

const procs: Proc[] = [];
let database: ReturnType<typeof ownPostgres>;
let db: pg.Client | undefined;
const log = (msg: string) =>
  console.log(`[chaos ${new Date().toISOString().slice(11, 19)}] ${msg}`);

beforeAll(() => {
  ensureBuild();
  database = ownPostgres();
});
afterAll(async () => {
  await Promise.all(procs.map((p) => p.kill("SIGKILL")));
  await db?.end().catch(() => {});
  database?.destroy();
});

async function count(sql: string) {
  if (!db) throw new Error("no database connection");
  const { rows } = await queryAs<{ n: number }>(db, sql);
  return rows[0]?.n ?? 0;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)] as T;

it(`survives ${EXECUTIONS} executions, a worker SIGKILLed every ${KILL_EVERY_MS} ms and PostgreSQL down for ${OUTAGE_MS} ms`, {
  timeout: DEADLINE_MS + 120_000,
}, async () => {
  // A receiver that fails one attempt in ten: retries are part of the test.
  const rx = await startReceiver({
    behaviour: () => ({ status: Math.random() < 0.1 ? 503 : 200 }),
  });
  const env = {
    DATABASE_URL: database.url,
    DATA_DIR: tempDir("chaos"),
    CREWS_DIR: FIXTURE_CREWS,
    CREW_TOKEN: TEST_CREW_TOKEN,
    AUTH_SECRET: "chaos-auth-secret-0123456789abcdef0123456789",
    // Slow enough that runs are mid-task when the kills land.
    OFFLINE_MODEL_DELAY_MS: process.env.CHAOS_STEP_DELAY_MS ?? "150",
    WORKER_LEASE_MS: "2000",
    WORKER_POLL_MS: "200",
    WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
    WEBHOOK_ALLOWED_NETWORKS: "127.0.0.2/32",
    WEBHOOK_RETRY_SCHEDULE: ["0", ...Array.from({ length: 30 }, () => "500")].join(","),
    RATE_LIMIT_PER_MINUTE: "1000000",
    // An attempt cut short by a kill is retried once its lease (twice this) runs out.
    WEBHOOK_TIMEOUT_MS: "2000",
  };
  const webs = [
    await startServer({ ...env, RUN_WORKER: "false" }),
    await startServer({ ...env, RUN_WORKER: "false" }),
  ];
  const workers = [await startWorkerProcess(env), await startWorkerProcess(env)];
  procs.push(...webs, ...workers);
  const api = (method: string, path: string, body?: unknown) =>
    call(pick(webs).url, method, path, { token: TEST_CREW_TOKEN, body });
  const hooks = {
    stepWebhookUrl: rx.url("/step"),
    taskWebhookUrl: rx.url("/task"),
    crewWebhookUrl: rx.url("/crew"),
  };

  // Kick everything off, twenty requests at a time, across both web instances.
  const ids: string[] = [];
  for (let i = 0; i < EXECUTIONS; i += 20) {
    const batch = Array.from({ length: Math.min(20, EXECUTIONS - i) }, async (_, j) => {
      const reviewed = (i + j) % 3 === 0;
      const r = await api("POST", `/api/crews/${reviewed ? "review" : "three-step"}/kickoff`, {
        inputs: reviewed ? { subject: `tides ${i + j}` } : { job: `job ${i + j}` },
        ...hooks,
      });
      expect(r.status, r.text).toBe(200);
      return r.json.kickoff_id as string;
    });
    ids.push(...(await Promise.all(batch)));
  }
  log(`${ids.length} executions queued`);

  let stopped = false;
  let outage = false;
  let kills = 0;
  let reviews = 0;
  const serverErrors: string[] = [];

  const sentBack = new Set<string>();
  // The reviewer: sends each first draft back once, approves everything else.
  const reviewer = (async () => {
    while (!stopped) {
      await sleep(250);
      const list = await api("GET", "/api/runs?status=pending_human_input&per_page=100").catch(
        () => undefined,
      );
      if (list?.status !== 200) continue;
      for (const run of list.json.runs as Json[]) {
        const p = run.pending_human_input;
        // By run, not by attempt: a kill mid-draft makes the first draft reviewed attempt 2.
        const sendBack = p.task_id === "draft" && !sentBack.has(run.id);
        const r = await api("POST", `/api/crews/${run.crew}/resume`, {
          execution_id: run.id,
          task_id: p.task_id,
          human_feedback: sendBack ? "Shorter, please." : "Good.",
          is_approve: !sendBack,
          ...hooks,
        }).catch(() => undefined);
        if (r?.status === 200) {
          reviews++;
          if (sendBack) sentBack.add(run.id);
        } else if (r && r.status >= 500 && r.status !== 503) serverErrors.push(`resume: ${r.text}`);
      }
    }
  })();

  // The killer: SIGKILL a worker, start a replacement, again and again (not while the database
  // is down: a new worker could not start then).
  let restarting = Promise.resolve();
  const killer = (async () => {
    while (!stopped) {
      await sleep(KILL_EVERY_MS);
      if (stopped || outage) continue;
      restarting = (async () => {
        const i = Math.floor(Math.random() * workers.length);
        await workers[i]?.kill("SIGKILL");
        kills++;
        const fresh = await startWorkerProcess(env);
        workers[i] = fresh;
        procs.push(fresh);
      })();
      await restarting;
    }
  })();

  db = new pg.Client({ connectionString: database.url });
  await db.connect();
  const done = () =>
    count(
      "SELECT count(*)::int AS n FROM executions WHERE status IN ('completed', 'error', 'cancelled')",
    );

  // PostgreSQL goes away in the middle.
  const start = Date.now();
  while ((await done()) < EXECUTIONS * 0.4) {
    if (Date.now() - start > DEADLINE_MS) throw new Error("timed out before the outage");
    await sleep(200);
  }
  outage = true;
  await restarting; // a worker being replaced needs the database to start
  await db.end();
  db = undefined;
  log(`stopping PostgreSQL for ${OUTAGE_MS} ms`);
  database.stop();
  const probes: { status: number; ms: number; retryAfter: string | null }[] = [];
  const downUntil = Date.now() + OUTAGE_MS;
  while (Date.now() < downUntil) {
    const t0 = Date.now();
    const r = await api("GET", `/api/crews/three-step/status/${pick(ids)}`);
    probes.push({
      status: r.status,
      ms: Date.now() - t0,
      retryAfter: r.headers.get("retry-after"),
    });
    await sleep(500);
  }
  database.start();
  log("PostgreSQL is back");
  outage = false;
  db = new pg.Client({ connectionString: database.url });
  await db.connect();
  // While down: cached statuses may still answer 200; everything else is a 503 with Retry-After,
  // quickly, never a 500 or a hang.
  expect(probes.some((p) => p.status === 503)).toBe(true);
  for (const p of probes) {
    expect([200, 503]).toContain(p.status);
    if (p.status === 503) expect(p.retryAfter).not.toBeNull();
    expect(p.ms).toBeLessThan(10_000);
  }

  while ((await done()) < EXECUTIONS) {
    if (Date.now() - start > DEADLINE_MS)
      throw new Error(`timed out: ${await done()} of ${EXECUTIONS} finished`);
    await sleep(500);
  }
  stopped = true;
  await Promise.all([reviewer, killer]);
  log(`all ${EXECUTIONS} finished after ${kills} kills and ${reviews} reviews`);

  // Every execution completed.
  const { rows: statuses } = await queryAs<{ status: string; n: number }>(
    db,
    "SELECT status, count(*)::int AS n FROM executions GROUP BY status",
  );
  expect(statuses).toEqual([{ status: "completed", n: EXECUTIONS }]);

  // Event sequences: 1..last_seq, no gaps, no duplicates (the primary key forbids those).
  const { rows: gaps } = await db.query(
    `SELECT e.id, e.last_seq, count(v.seq)::int AS n, min(v.seq) AS lo, max(v.seq) AS hi
         FROM executions e LEFT JOIN execution_events v ON v.execution_id = e.id
        GROUP BY e.id HAVING count(v.seq) <> e.last_seq OR min(v.seq) <> 1 OR max(v.seq) <> e.last_seq`,
  );
  expect(gaps).toEqual([]);

  // No task's output completed twice; every task of every execution completed once.
  const { rows: twice } = await db.query(
    `SELECT execution_id, task_id, count(*)::int AS n FROM execution_events
        WHERE type = 'task_completed' GROUP BY execution_id, task_id HAVING count(*) <> 1`,
  );
  expect(twice).toEqual([]);
  const { rows: perRun } = await queryAs<{ crew: string; n: number }>(
    db,
    `SELECT e.crew, count(v.*)::int AS n FROM executions e
         JOIN execution_events v ON v.execution_id = e.id AND v.type = 'task_completed'
        GROUP BY e.id, e.crew`,
  );
  expect(perRun).toHaveLength(EXECUTIONS);
  for (const r of perRun) expect(r.n).toBe(r.crew === "review" ? 2 : 3);
  // Each reviewed run's first draft was sent back once, and the retried draft approved.
  const { rows: decisions } = await queryAs<{ decision: string; task_id: string; n: number }>(
    db,
    `SELECT data->>'decision' AS decision, task_id, count(*)::int AS n FROM execution_events
      WHERE type = 'review_submitted' GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  const recovered = await count(
    "SELECT count(DISTINCT execution_id)::int AS n FROM execution_events WHERE type = 'execution_recovered'",
  );
  log(`${recovered} executions were taken over from a killed worker`);
  const reviewed = ids.filter((_, i) => i % 3 === 0).length;
  expect(decisions).toEqual([
    { decision: "approve", task_id: "draft", n: reviewed },
    { decision: "approve", task_id: "polish", n: reviewed },
    { decision: "reject", task_id: "draft", n: reviewed },
  ]);

  // Webhooks: each event that owes one has exactly one delivery; each delivery succeeded and
  // reached the receiver (at least once, and once by webhook-id) with a valid signature.
  const { rows: events } = await queryAs<{ execution_id: string; seq: number; type: string }>(
    db,
    "SELECT execution_id, seq, type FROM execution_events",
  );
  const owed = new Set(
    events.filter((e) => webhookKind(e.type)).map((e) => `${e.execution_id}/${e.seq}`),
  );
  const allDelivered = async () =>
    (await count(
      "SELECT count(*)::int AS n FROM webhook_deliveries WHERE status <> 'succeeded'",
    )) === 0;
  while (!(await allDelivered())) {
    if (Date.now() - start > DEADLINE_MS + 60_000) throw new Error("deliveries never finished");
    await sleep(500);
  }
  const { rows: deliveries } = await queryAs<{
    id: string;
    execution_id: string;
    event_seq: number;
  }>(db, "SELECT id, execution_id, event_seq FROM webhook_deliveries");
  expect(deliveries.length).toBe(owed.size);
  expect(new Set(deliveries.map((d) => `${d.execution_id}/${d.event_seq}`))).toEqual(owed);
  const accepted = rx.received.filter((r) => r.validSignature);
  expect(accepted.length).toBe(rx.received.length);
  const receivedIds = new Set(rx.received.map((r) => r.id));
  expect(receivedIds).toEqual(new Set(deliveries.map((d) => d.id)));
  const repeats = rx.received.length - receivedIds.size;
  log(
    `${deliveries.length} webhooks delivered; ${repeats} extra attempts (receiver 503s and deliveries cut by a kill)`,
  );
  expect(serverErrors).toEqual([]);
  await rx.close();
});
