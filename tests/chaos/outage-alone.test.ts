import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { call } from "../support/api";
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
import { queryAs } from "../support/rows";

// Two `npm run worker` processes that nobody replaces, and PostgreSQL crashing under them
// (pg_ctl stop -m immediate) while each of them is inside a transaction: they must ride the
// outage out on their own, finish every execution once it is back, and still be alive.
//
// "Inside a transaction" is made certain, not left to luck: the test locks every execution row,
// so a running execution's next state change waits for the lock inside its transaction (a single
// statement is one too); the crash comes once each worker has one waiting.
const EXECUTIONS = Number(process.env.CHAOS_EXECUTIONS ?? 40);
const OUTAGE_MS = Number(process.env.CHAOS_OUTAGE_MS ?? 5_000);
const DEADLINE_MS = Number(process.env.CHAOS_DEADLINE_MS ?? 300_000);

const procs: Proc[] = [];
let database: ReturnType<typeof ownPostgres>;
const clients: pg.Client[] = [];
const log = (msg: string) =>
  console.log(`[outage ${new Date().toISOString().slice(11, 19)}] ${msg}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(() => {
  ensureBuild();
  database = ownPostgres();
});
afterAll(async () => {
  await Promise.all(procs.map((p) => p.kill("SIGKILL")));
  await Promise.all(clients.map((c) => c.end().catch(() => {})));
  database?.destroy();
});

async function connect() {
  const client = new pg.Client({ connectionString: database.url });
  client.on("error", () => {}); // the crash cuts this connection too
  await client.connect();
  clients.push(client);
  return client;
}

const alive = (p: Proc) => p.proc.exitCode === null && p.proc.signalCode === null;

it(`unreplaced workers survive PostgreSQL crashing mid-transaction for ${OUTAGE_MS} ms`, {
  timeout: DEADLINE_MS + 60_000,
}, async () => {
  const env = {
    DATABASE_URL: database.url,
    DATA_DIR: tempDir("outage-alone"),
    CREWS_DIR: FIXTURE_CREWS,
    CREW_TOKEN: TEST_CREW_TOKEN,
    AUTH_SECRET: "chaos-auth-secret-0123456789abcdef0123456789",
    // Runs long enough (about 1 s each) that both workers hold some at once: at 50 ms a step,
    // one worker could finish each run before the next kickoff came, and the freeze below
    // waited for both to hold work until its deadline.
    OFFLINE_MODEL_DELAY_MS: "300",
    WORKER_LEASE_MS: "2000",
    WORKER_POLL_MS: "200",
    WORKER_CONCURRENCY: "4",
    RATE_LIMIT_PER_MINUTE: "1000000",
  };
  const web = await startServer({ ...env, RUN_WORKER: "false" });
  procs.push(web);
  // PGAPPNAME names each worker's connections, so the test can see which of them waits.
  const workers = [
    await startWorkerProcess({ ...env, PGAPPNAME: "worker-0" }),
    await startWorkerProcess({ ...env, PGAPPNAME: "worker-1" }),
  ];
  procs.push(...workers);
  // The work comes once both are up and polling, so one slow start cannot leave the other all
  // of it.
  const ids: string[] = [];
  for (let i = 0; i < EXECUTIONS; i++) {
    const r = await call(web.url, "POST", "/api/crews/three-step/kickoff", {
      token: TEST_CREW_TOKEN,
      body: { inputs: { job: `job ${i}` } },
    });
    expect(r.status, r.text).toBe(200);
    ids.push(r.json.kickoff_id as string);
  }

  // Freeze every execution row at a moment when both workers hold a run that is not finished:
  // each of those runs has a state change to make, and it will wait for the lock inside its
  // transaction. (Otherwise let go and try again: a worker may have just finished its last.)
  const locker = await connect();
  const count = async (sql: string) => (await queryAs<{ n: number }>(locker, sql)).rows[0]?.n ?? 0;
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    await locker.query("BEGIN");
    await locker.query("SELECT id FROM executions FOR UPDATE");
    const owners = await count(
      `SELECT count(DISTINCT lease_owner)::int AS n FROM executions
        WHERE lease_owner IS NOT NULL AND status IN ('queued', 'running')`,
    );
    if (owners === 2) break;
    await locker.query("ROLLBACK");
    if (Date.now() > deadline) throw new Error("the workers never both held work");
    await sleep(50);
  }
  // Wait until each worker has a state change waiting on those locks: the writer's one statement
  // (a transaction of its own), or the locked way's SELECT … FOR UPDATE inside its transaction.
  // Watched from another connection: inside a transaction pg_stat_activity is a frozen snapshot.
  const watcher = await connect();
  const watch = async (sql: string) => (await queryAs<{ n: number }>(watcher, sql)).rows[0]?.n ?? 0;
  while (
    (await watch(
      `SELECT count(DISTINCT application_name)::int AS n FROM pg_stat_activity
        WHERE application_name LIKE 'worker-%' AND wait_event_type = 'Lock'
          AND (query LIKE 'WITH w0_updated AS (UPDATE executions%'
               OR query LIKE 'SELECT * FROM executions WHERE id = $1 FOR UPDATE%')`,
    )) < 2
  ) {
    if (Date.now() > deadline) {
      const { rows } = await watcher.query(
        "SELECT application_name, state, wait_event_type, left(query, 60) AS query FROM pg_stat_activity WHERE backend_type = 'client backend'",
      );
      throw new Error(`the workers never both waited on the locks: ${JSON.stringify(rows)}`);
    }
    await sleep(50);
  }
  const outputBefore = workers.map((w) => w.output().length);
  log(`crashing PostgreSQL for ${OUTAGE_MS} ms`);
  database.stopImmediately();
  await sleep(OUTAGE_MS); // the outage itself: nothing below depends on how long it was
  database.start();
  log("PostgreSQL is back");

  const db = await connect();
  const finished = async () =>
    (
      await queryAs<{ n: number }>(
        db,
        "SELECT count(*)::int AS n FROM executions WHERE status IN ('completed', 'error', 'cancelled')",
      )
    ).rows[0]?.n ?? 0;
  while ((await finished()) < EXECUTIONS) {
    workers.forEach((w, i) => {
      if (!alive(w)) throw new Error(`worker ${i} died:\n${w.output().slice(-3000)}`);
    });
    if (Date.now() > deadline)
      throw new Error(`timed out: ${await finished()} of ${EXECUTIONS} finished`);
    await sleep(200);
  }

  expect(workers.map(alive)).toEqual([true, true]);
  const { rows: statuses } = await db.query(
    "SELECT status, count(*)::int AS n FROM executions GROUP BY status",
  );
  expect(statuses).toEqual([{ status: "completed", n: EXECUTIONS }]);
  // Every task completed exactly once; event sequences have no gaps.
  const { rows: twice } = await db.query(
    `SELECT execution_id, task_id, count(*)::int AS n FROM execution_events
      WHERE type = 'task_completed' GROUP BY execution_id, task_id HAVING count(*) <> 1`,
  );
  expect(twice).toEqual([]);
  const { rows: perRun } = await queryAs<{ n: number }>(
    db,
    `SELECT count(*)::int AS n FROM execution_events WHERE type = 'task_completed'
      GROUP BY execution_id`,
  );
  expect(perRun.map((r) => r.n)).toEqual(ids.map(() => 3));
  const { rows: gaps } = await db.query(
    `SELECT e.id FROM executions e LEFT JOIN execution_events v ON v.execution_id = e.id
      GROUP BY e.id HAVING count(v.seq) <> e.last_seq OR min(v.seq) <> 1 OR max(v.seq) <> e.last_seq`,
  );
  expect(gaps).toEqual([]);

  // The outage is told in a line or two per worker, not a stack trace per failed attempt.
  for (const [i, w] of workers.entries()) {
    const during = w.output().slice(outputBefore[i]);
    log(`worker ${i} said:\n${during}`);
    expect(during).not.toMatch(/^\s+at /m);
    expect(during.split("\n").filter((l) => /database/i.test(l)).length).toBeLessThanOrEqual(4);
  }
});
