// Engine throughput: executions per second of the example crew (research-brief: 3 tasks, offline
// model, OFFLINE_MODEL_DELAY_MS=0). RUNS executions are queued while no worker can take them,
// then released at once; the clock runs from the release to the last `execution_completed`:
//   a. embedded: kickoffs with RUN_WORKER=false, restart with the worker (release = "ready")
//   b. PostgreSQL, web with RUN_WORKER=false and 1 separate worker (scripts/worker.ts)
//   c. PostgreSQL, 2 separate workers
//   d. PostgreSQL, 1 worker with WORKER_CONCURRENCY=1, SERIAL_RUNS executions: the engine's time
//      per task without contention.
//   e. PostgreSQL, 1 worker with WORKER_CONCURRENCY=WIDE_CONCURRENCY and a model that takes
//      WIDE_DELAY_MS per call (as a real one does): WIDE_RUNS executions against the bound that
//      waiting on the model sets (concurrency ÷ one execution's time alone), i.e. whether many
//      runs in flight cost the engine anything beyond the model's own time.
// On PostgreSQL the queued rows are held with a lease that never expires while the workers boot.
// Per task, the event log gives the wall time from `task_started` to `task_completed`; the model's
// own time per task is measured in process (bench/engine-model-time.ts) and subtracted.
// Also the worker's CPU time per task (from /proc). Beside it, in the same run and on the same
// PostgreSQL, an anchor: graphile-worker running as many chains of 3 no-op jobs, each queuing the
// next (bench/queue-anchor.mjs), so Crewdeck's per-task cost reads as a ratio to a well-known
// queue's per-job cost. Appends to RESULTS.md.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import pg from "pg";
import {
  appendResults,
  createDatabase,
  machine,
  ROOT,
  run,
  sleep,
  stamp,
  startCrewdeck,
  startWorker,
  stop,
  tempDir,
} from "./common.mjs";
import { cpuMs, kickoffMany, percentile } from "./measure.mjs";
import { queueAnchor } from "./queue-anchor.mjs";

// A fan-out of short runs at steady state: 300 were done in about a second, most of it the JIT's
// warm-up (both sides, ours and the anchor's, read a third faster at 1,500).
const RUNS = Number(process.env.RUNS ?? 1500);
const SERIAL_RUNS = Number(process.env.SERIAL_RUNS ?? 300);
// The worker's default WORKER_CONCURRENCY (lib/config/env.ts); the anchor runs with the same.
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 32);
const WIDE_RUNS = Number(process.env.WIDE_RUNS ?? 600);
const WIDE_CONCURRENCY = Number(process.env.WIDE_CONCURRENCY ?? 200);
const WIDE_DELAY_MS = Number(process.env.WIDE_DELAY_MS ?? 500);
const CREW = "research-brief";
const ANCHOR_VERSION = JSON.parse(
  fs.readFileSync(`${ROOT}/node_modules/graphile-worker/package.json`, "utf8"),
).version;
const inputs = (i) => ({ topic: `Heat pumps ${i}`, audience: "home owners" });

async function eventsOf(server, id) {
  const res = await fetch(`${server.base(CREW)}/executions/${id}/events?after=0`, {
    headers: server.headers,
  });
  if (!res.ok) throw new Error(`events of ${id}: ${res.status}`);
  return (await res.json()).events;
}

/** Throughput from the release `t0` to the last completion, and task wall times, from events. */
async function analyse(server, ids, t0) {
  const taskMs = [];
  let lastDone = 0;
  let firstStart = Number.POSITIVE_INFINITY;
  let recovered = 0; // dropped by a worker mid-task, taken up again after their lease ran out
  for (const id of ids) {
    const events = await eventsOf(server, id);
    const at = (e) => Date.parse(e.created_at);
    const done = events.find((e) => e.type === "execution_completed");
    if (!done) throw new Error(`${id} did not complete: ${events.at(-1)?.type}`);
    lastDone = Math.max(lastDone, at(done));
    firstStart = Math.min(firstStart, at(events.find((e) => e.type === "execution_started")));
    if (events.some((e) => e.type === "execution_recovered")) recovered++;
    const started = new Map();
    for (const e of events) {
      const key = `${e.task_id}/${e.attempt}`;
      if (e.type === "task_started") started.set(key, at(e));
      if (e.type === "task_completed") taskMs.push(at(e) - started.get(key));
    }
  }
  taskMs.sort((a, b) => a - b);
  const elapsed = lastDone - t0;
  // Event times have millisecond resolution: a percentile is a whole millisecond, while the mean
  // of the differences is unbiased below it.
  const taskMean = taskMs.reduce((sum, ms) => sum + ms, 0) / taskMs.length;
  return {
    elapsed,
    perSecond: (ids.length * 1000) / elapsed,
    // Without the worker's start-up (the embedded worker boots at the release).
    fromFirstClaim: (ids.length * 1000) / (lastDone - firstStart),
    firstStartDelay: firstStart - t0,
    taskP50: percentile(taskMs, 50),
    taskP99: percentile(taskMs, 99),
    taskMean,
    recovered,
  };
}

// Polled seldom: the times come from the event log, and on the embedded database every poll is a
// request and a query on the thread that runs the engine.
async function waitUntil(done, what, timeoutMs = 300_000) {
  const t0 = Date.now();
  while (!(await done())) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`${what}: not done in ${timeoutMs / 1000} s`);
    await sleep(500);
  }
}

async function embedded() {
  const dataDir = tempDir("crewdeck-bench-engine-");
  let web = await startCrewdeck({ DATA_DIR: dataDir, RUN_WORKER: "false" });
  const ids = await kickoffMany(web, CREW, RUNS, inputs);
  await stop(web);
  web = await startCrewdeck({
    DATA_DIR: dataDir,
    RUN_WORKER: "true",
    WORKER_CONCURRENCY: String(CONCURRENCY),
  });
  const t0 = web.readyAt; // the worker starts right after "Crewdeck is ready"
  const cpu0 = cpuMs(web.pid);
  await waitUntil(async () => {
    const stats = await (await fetch(`${web.url}/api/runs/stats`, { headers: web.headers })).json();
    return stats.running === 0;
  }, "embedded");
  const cpu = cpuMs(web.pid) - cpu0;
  const r = await analyse(web, ids, t0);
  await stop(web);
  return { ...r, cpuPerTask: cpu / (RUNS * 3) };
}

async function onPostgres(
  web,
  client,
  dbUrl,
  { workers, runs, concurrency = CONCURRENCY, delayMs = 0 },
) {
  const ids = await kickoffMany(web, CREW, runs, inputs);
  // Held by nobody until every worker is up; then released in one statement.
  await client.query(
    "UPDATE executions SET lease_owner = 'bench-hold', lease_expires_at = 'infinity' WHERE id = ANY($1::uuid[])",
    [ids],
  );
  const procs = await Promise.all(
    Array.from({ length: workers }, () =>
      startWorker({
        DATABASE_URL: dbUrl,
        WORKER_CONCURRENCY: String(concurrency),
        OFFLINE_MODEL_DELAY_MS: String(delayMs),
      }),
    ),
  );
  await sleep(1000); // "running" is printed before the worker's LISTEN is in place
  const cpu0 = procs.map((p) => cpuMs(p.pid));
  const t0 = Date.now();
  await client.query(
    "UPDATE executions SET lease_owner = NULL, lease_expires_at = NULL WHERE lease_owner = 'bench-hold'",
  );
  await client.query("SELECT pg_notify('crewdeck_work', 'bench')");
  await waitUntil(async () => {
    const { rows } = await client.query(
      "SELECT count(*)::int AS open FROM executions WHERE id = ANY($1::uuid[]) AND status IN ('queued', 'running')",
      [ids],
    );
    return rows[0].open === 0;
  }, `${workers} worker(s)`);
  const cpu = procs.reduce((sum, p, i) => sum + cpuMs(p.pid) - cpu0[i], 0);
  await Promise.all(procs.map((p) => stop(p)));
  const r = await analyse(web, ids, t0);
  return { ...r, cpuPerTask: cpu / (runs * 3) };
}

function modelTime() {
  const out = execFileSync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "bench/engine-model-time.ts"],
    { cwd: ROOT, encoding: "utf8" },
  );
  const { perTask } = JSON.parse(out.trim().split("\n").at(-1));
  const tasks = Object.values(perTask);
  const avg = (k) => tasks.reduce((s, t) => s + t[k], 0) / tasks.length;
  return { model: avg("model_ms"), loop: avg("loop_ms") };
}

run(async () => {
  const model = modelTime();
  console.log(
    `in process, per task: offline model ${model.model.toFixed(2)} ms, whole agent loop (tool loop + model + tools) ${model.loop.toFixed(2)} ms`,
  );

  const results = [];
  const report = (name, r) => {
    results.push({ name, ...r });
    console.log(
      `${name.padEnd(50)} ${r.perSecond.toFixed(1).padStart(6)} executions/s (${r.runs} in ${(r.elapsed / 1000).toFixed(2)} s; first claim +${r.firstStartDelay} ms, ${r.fromFirstClaim.toFixed(1)}/s from it)  task p50 ${r.taskP50} ms  p99 ${r.taskP99} ms  worker CPU ${r.cpuPerTask.toFixed(1)} ms/task` +
        (r.recovered ? `  (${r.recovered} recovered after a lease expiry)` : ""),
    );
  };
  report(`a. embedded, in-process worker (concurrency ${CONCURRENCY})`, {
    ...(await embedded()),
    runs: RUNS,
  });

  const db = await createDatabase("crewdeck_bench_engine");
  const web = await startCrewdeck({ RUN_WORKER: "false", DATABASE_URL: db.url });
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  let wide;
  try {
    for (const workers of [1, 2]) {
      report(
        `${workers === 1 ? "b" : "c"}. PostgreSQL, ${workers} worker${workers === 1 ? "" : "s"} (concurrency ${CONCURRENCY})`,
        {
          ...(await onPostgres(web, client, db.url, { workers, runs: RUNS })),
          runs: RUNS,
        },
      );
    }
    report("d. PostgreSQL, 1 worker, concurrency 1 (serial)", {
      ...(await onPostgres(web, client, db.url, {
        workers: 1,
        runs: SERIAL_RUNS,
        concurrency: 1,
      })),
      runs: SERIAL_RUNS,
    });
    // e: one execution alone with the slow model gives the bound; then many at once.
    const alone = await onPostgres(web, client, db.url, {
      workers: 1,
      runs: 2,
      concurrency: 2,
      delayMs: WIDE_DELAY_MS,
    });
    wide = {
      ...(await onPostgres(web, client, db.url, {
        workers: 1,
        runs: WIDE_RUNS,
        concurrency: WIDE_CONCURRENCY,
        delayMs: WIDE_DELAY_MS,
      })),
      runs: WIDE_RUNS,
      aloneMs: alone.elapsed - alone.firstStartDelay,
    };
    wide.bound = (WIDE_CONCURRENCY * 1000) / wide.aloneMs;
    console.log(
      `e. PostgreSQL, 1 worker, concurrency ${WIDE_CONCURRENCY}, model ${WIDE_DELAY_MS} ms per call: ${wide.perSecond.toFixed(1)} executions/s (${WIDE_RUNS} in ${(wide.elapsed / 1000).toFixed(1)} s); one alone takes ${(wide.aloneMs / 1000).toFixed(2)} s, so the bound is ${wide.bound.toFixed(1)}/s: ${((100 * wide.perSecond) / wide.bound).toFixed(0)} %; worker CPU ${wide.cpuPerTask.toFixed(1)} ms/task`,
    );
  } finally {
    await client.end();
    await stop(web);
    await db.drop();
  }
  // The anchor, on the same PostgreSQL, once Crewdeck's processes are stopped.
  const anchor = await queueAnchor({
    databaseUrl: process.env.TEST_PG_URL,
    chains: RUNS,
    concurrency: CONCURRENCY,
  });
  const anchorSerial = await queueAnchor({
    databaseUrl: process.env.TEST_PG_URL,
    chains: SERIAL_RUNS,
    concurrency: 1,
  });
  const b = results.find((r) => r.name.startsWith("b."));
  const serial = results.at(-1);
  // Per task in the serial run, everything included (claim, writes, the agent loop), from the
  // first start to the last completion; the model's own time taken out.
  const serialPerTask = (serial.elapsed - serial.firstStartDelay) / (serial.runs * 3);
  const anchorLines = [
    [`concurrency ${CONCURRENCY}`, anchor, b.perSecond * 3, b.cpuPerTask, RUNS],
    [
      "serial",
      anchorSerial,
      (serial.runs * 3 * 1000) / serial.elapsed,
      serial.cpuPerTask,
      SERIAL_RUNS,
    ],
  ].map(([what, a, tasksPerSecond, cpuPerTask, chains]) => {
    const line = `anchor graphile-worker, ${chains} chains × 3 no-op jobs, ${what}: ${a.jobsPerSecond.toFixed(0)} jobs/s, worker CPU ${a.workerCpuMsPerJob.toFixed(2)} ms/job; Crewdeck ${tasksPerSecond.toFixed(0)} tasks/s (${(tasksPerSecond / a.jobsPerSecond).toFixed(2)}× its rate), CPU ${cpuPerTask.toFixed(2)} ms/task (${(cpuPerTask / a.workerCpuMsPerJob).toFixed(1)}× its cost)`;
    console.log(line);
    return { what, a, tasksPerSecond, cpuPerTask, chains };
  });

  const engineP50 = serial.taskP50 - model.model;
  const engineP99 = serial.taskP99 - model.model;
  const engineMean = serial.taskMean - model.model;
  console.log(
    `serial, per task from first start to last completion: ${serialPerTask.toFixed(2)} ms, ${(serialPerTask - model.model).toFixed(2)} ms without the model`,
  );
  console.log(
    `engine time per task, model excluded (serial, PostgreSQL): p50 ${engineP50.toFixed(1)} ms, p99 ${engineP99.toFixed(1)} ms, mean ${engineMean.toFixed(2)} ms ` +
      `(task wall p50 ${serial.taskP50} ms, mean ${serial.taskMean.toFixed(2)} ms − offline model ${model.model.toFixed(2)} ms; the agent loop without the database is ${model.loop.toFixed(2)} ms of it)`,
  );

  const date = stamp();
  const m = machine();
  const lines = results.map(
    (r) =>
      `| ${date} | ${m} | engine: ${r.runs} × research-brief (3 tasks, offline model, no delay), ${r.name.slice(3)} | – | ${r.perSecond.toFixed(1)} executions/s (${r.fromFirstClaim.toFixed(1)} from first claim) | task wall p50 ${r.taskP50} | p99 ${r.taskP99} | worker CPU ${r.cpuPerTask.toFixed(1)} ms/task${r.recovered ? `; ${r.recovered} recovered after a lease expiry` : ""} |`,
  );
  lines.push(
    `| ${date} | ${m} | engine: ${wide.runs} × research-brief, model ${WIDE_DELAY_MS} ms per call, PostgreSQL, 1 worker (concurrency ${WIDE_CONCURRENCY}) | – | ${wide.perSecond.toFixed(1)} executions/s | task wall p50 ${wide.taskP50} | p99 ${wide.taskP99} | ${((100 * wide.perSecond) / wide.bound).toFixed(0)} % of the model-bound ${wide.bound.toFixed(1)}/s (one execution alone: ${(wide.aloneMs / 1000).toFixed(2)} s); worker CPU ${wide.cpuPerTask.toFixed(1)} ms/task |`,
    `| ${date} | ${m} | engine time per task, model excluded (task wall serial on PostgreSQL − offline model ${model.model.toFixed(2)} ms; agent loop w/o database ${model.loop.toFixed(2)} ms) | – | – | ${engineP50.toFixed(1)} (mean ${engineMean.toFixed(2)}) | ${engineP99.toFixed(1)} | serial wall per task, all included: ${serialPerTask.toFixed(2)} ms − model = ${(serialPerTask - model.model).toFixed(2)} ms |`,
    ...anchorLines.map(
      ({ what, a, tasksPerSecond, cpuPerTask, chains }) =>
        `| ${date} | ${m} | anchor: graphile-worker ${ANCHOR_VERSION}, ${chains} chains × 3 chained no-op jobs, same PostgreSQL, 1 worker, ${what} | – | ${a.jobsPerSecond.toFixed(0)} jobs/s | job wall p50 ${a.jobWallP50.toFixed(2)} | p99 ${a.jobWallP99.toFixed(2)} | worker CPU ${a.workerCpuMsPerJob.toFixed(2)} ms/job; Crewdeck ${tasksPerSecond.toFixed(0)} tasks/s = ${(tasksPerSecond / a.jobsPerSecond).toFixed(2)}× its rate, ${cpuPerTask.toFixed(2)} ms CPU/task = ${(cpuPerTask / a.workerCpuMsPerJob).toFixed(1)}× its cost |`,
    ),
  );
  appendResults(lines);
});
