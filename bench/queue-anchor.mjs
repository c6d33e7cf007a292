// An anchor for the engine benchmark (bench/engine.mjs): graphile-worker, a well-known PostgreSQL
// job queue, on the same PostgreSQL running `chains` chains of `length` no-op jobs, each job queuing
// the next of its chain when it runs (as a crew's tasks run in order), in one separate worker
// process (bench/queue-anchor-worker.mjs) with the same concurrency as Crewdeck's worker. Its
// per-job cost puts Crewdeck's per-task cost in proportion.
// As in engine.mjs, every chain head is queued while no worker can take it (run_at in the future),
// the worker is started, and the clock runs from the release (run_at = now() and a NOTIFY, as
// add_job would send) to the last job's completion (its row gone from the jobs table).
// Standalone: `node bench/queue-anchor.mjs` with TEST_PG_URL set (source scripts/pg-test-server.sh);
// CHAINS (100) with concurrency 8, then SERIAL_CHAINS (20) with concurrency 1. Prints only.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { makeWorkerUtils } from "graphile-worker";
import pg from "pg";
import { run, sleep, startNode, stop } from "./common.mjs";
import { cpuMs } from "./measure.mjs";

const WORKER = path.join(import.meta.dirname, "queue-anchor-worker.mjs");
const DATABASE = "crewdeck_bench_queue_anchor";

/** A fresh database next to `databaseUrl` (on the same server), so Crewdeck's tables stay apart. */
async function freshDatabase(databaseUrl) {
  const admin = async (sql) => {
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${DATABASE}`);
  const url = new URL(databaseUrl);
  url.pathname = `/${DATABASE}`;
  return {
    url: url.toString(),
    drop: () => admin(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`),
  };
}

/** Resolves with the worker's summary line, or rejects when `timeoutMs` passes or it exits. */
function summaryOf(worker, timeoutMs) {
  return new Promise((resolve, reject) => {
    let out = "";
    const finish = (fn, value) => {
      clearTimeout(timer);
      worker.child.stdout.off("data", take);
      worker.child.off("exit", exited);
      fn(value);
    };
    const take = (d) => {
      out += d;
      const m = /queue-anchor-summary (.*)\n/.exec(out);
      if (m) finish(resolve, JSON.parse(m[1]));
    };
    const exited = () =>
      finish(reject, new Error(`worker exited:\n${worker.output().slice(-4000)}`));
    const timer = setTimeout(
      () => finish(reject, new Error(`queue anchor not done in ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    worker.child.stdout.on("data", take);
    worker.child.on("exit", exited);
  });
}

/**
 * Every handler has run; waits until the last completions reach the table too (graphile-worker
 * deletes a job's row when it completes) and returns when they did.
 */
async function untilCompleted(client, handlersDoneAt) {
  for (;;) {
    const { rows } = await client.query(
      "SELECT count(*)::int AS open, count(*) FILTER (WHERE last_error IS NOT NULL)::int AS failed FROM graphile_worker._private_jobs",
    );
    const { open, failed } = rows[0];
    if (open === 0) return Date.now();
    if (failed || Date.now() - handlersDoneAt > 10_000)
      throw new Error(`queue anchor: ${open} jobs left in the table (${failed} failed)`);
    await sleep(2);
  }
}

/** How many jobs were ever queued, from the jobs table's id sequence: heads and follow-ups. */
async function jobsCreated(client) {
  const { rows } = await client.query(
    "SELECT pg_get_serial_sequence('graphile_worker._private_jobs', 'id') AS seq",
  );
  const { rows: seq } = await client.query(`SELECT last_value, is_called FROM ${rows[0].seq}`);
  return seq[0].is_called ? Number(seq[0].last_value) : 0;
}

/**
 * graphile-worker running `chains` chains of `length` jobs with `concurrency`; `databaseUrl` is any
 * database of the PostgreSQL to use (the anchor creates and drops its own database there).
 */
export async function queueAnchor({
  databaseUrl = process.env.TEST_PG_URL,
  chains,
  length = 3,
  concurrency = 8,
  timeoutMs = 300_000,
}) {
  if (!databaseUrl) throw new Error("queueAnchor: no databaseUrl (nor TEST_PG_URL)");
  const jobs = chains * length;
  const db = await freshDatabase(databaseUrl);
  // Our own pool, ended before the database is dropped: a client the utils' pool still held when
  // the DROP … WITH (FORCE) came was terminated, and that 'error' had no listener.
  const pool = new pg.Pool({ connectionString: db.url });
  // An idle client lost while tearing down: nothing to do (a query's own error still rejects it).
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  const utils = await makeWorkerUtils({ pgPool: pool });
  let worker;
  try {
    await utils.migrate(); // not in the worker's start-up, nor in the timing
    const held = new Date(Date.now() + 3_600_000);
    const heads = await utils.addJobs(
      Array.from({ length: chains }, (_, chain) => ({
        identifier: "step",
        payload: { chain, step: 1, length },
        runAt: held,
      })),
    );
    worker = await startNode(
      [WORKER],
      {
        DATABASE_URL: db.url,
        CONCURRENCY: String(concurrency),
        EXPECTED_JOBS: String(jobs),
        NO_LOG_SUCCESS: "1",
      },
      /queue-anchor worker running/,
    );
    await sleep(1000); // as engine.mjs: let the worker's LISTEN settle before the release
    const summary = summaryOf(worker, timeoutMs);
    const cpu0 = cpuMs(worker.pid);
    const t0 = Date.now();
    await utils.withPgClient(async (client) => {
      await client.query("SELECT graphile_worker.reschedule_jobs($1::bigint[], run_at := now())", [
        heads.map((j) => j.id),
      ]);
      await client.query(`SELECT pg_notify('jobs:insert', '{"count":${chains}}')`);
    });
    const s = await summary;
    const last = await utils.withPgClient((client) => untilCompleted(client, s.handlersDoneAt));
    const cpu = cpuMs(worker.pid) - cpu0;
    const created = await utils.withPgClient(jobsCreated);
    if (
      created !== jobs ||
      s.executed !== jobs ||
      s.distinct !== jobs ||
      s.duplicates ||
      s.outOfOrder
    )
      throw new Error(
        `queue anchor: chains did not run as queued: ${created} jobs created, ${JSON.stringify(s)}`,
      );
    const elapsedMs = last - t0;
    return {
      jobs,
      elapsedMs,
      chainsPerSecond: (chains * 1000) / elapsedMs,
      jobsPerSecond: (jobs * 1000) / elapsedMs,
      perJobMs: elapsedMs / jobs,
      jobWallP50: s.jobWallP50,
      jobWallP99: s.jobWallP99,
      firstStartDelayMs: s.firstStartAt - t0,
      workerCpuMsPerJob: cpu / jobs,
    };
  } finally {
    await stop(worker);
    await utils.release();
    await pool.end();
    await db.drop();
  }
}

/** One line of figures, e.g. for a report. */
export function describeAnchor({ chains, length = 3, concurrency = 8 }, r) {
  return (
    `graphile-worker, ${chains} chains × ${length} no-op jobs, 1 worker, concurrency ${concurrency}: ` +
    `${r.chainsPerSecond.toFixed(1)} chains/s, ${r.jobsPerSecond.toFixed(1)} jobs/s ` +
    `(${r.jobs} in ${(r.elapsedMs / 1000).toFixed(2)} s; first start +${r.firstStartDelayMs} ms), ` +
    `${r.perJobMs.toFixed(2)} ms/job, job wall p50 ${r.jobWallP50.toFixed(2)} ms p99 ${r.jobWallP99.toFixed(2)} ms, ` +
    `worker CPU ${r.workerCpuMsPerJob.toFixed(2)} ms/job`
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  run(async () => {
    const variants = [
      { chains: Number(process.env.CHAINS ?? 100), concurrency: 8 },
      { chains: Number(process.env.SERIAL_CHAINS ?? 20), concurrency: 1 },
    ];
    for (const v of variants) console.log(describeAnchor(v, await queueAnchor(v)));
  });
}
