// Memory of a worker process idle vs with RUNS (1,000) executions paused for review. Goal: at
// most +50 MB. On PostgreSQL: a web instance (RUN_WORKER=false) and one separate worker
// (scripts/worker.ts, spawned with process.execPath: its pid is the node process measured).
// The crew is written for this benchmark (temporary CREWS_DIR): its first task asks for review,
// so each execution runs one task and pauses. Paused runs must not hold worker slots: all RUNS
// must reach `pending_human_input` with WORKER_CONCURRENCY=8.
// RSS (VmRSS from /proc) is sampled every second for SAMPLE_S s and the median kept; GC cannot be
// forced from outside, so as a second figure both processes preload bench/gc-on-signal.mjs and
// report heap and RSS after a full GC on SIGUSR2. Stops what it started. Appends to RESULTS.md.
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import {
  appendResults,
  createDatabase,
  machine,
  run,
  sleep,
  stamp,
  startCrewdeck,
  startWorker,
  stop,
  tempDir,
} from "./common.mjs";
import { kickoffMany, median, rssMb } from "./measure.mjs";

const RUNS = Number(process.env.RUNS ?? 1_000);
const SAMPLE_S = Number(process.env.SAMPLE_S ?? 10);
const CONCURRENCY = process.env.WORKER_CONCURRENCY ?? "8";
const CREW = "bench-review";
const PRELOAD = ["--expose-gc", "--import", "./bench/gc-on-signal.mjs"];

function writeCrew() {
  const dir = tempDir("crewdeck-bench-crews-");
  fs.mkdirSync(path.join(dir, CREW));
  fs.writeFileSync(
    path.join(dir, CREW, "crew.yaml"),
    `name: Review benchmark
agents:
  writer:
    role: "Writer"
    goal: "Draft text about {subject}"
    backstory: "Takes feedback well."
    tools: [word_count]
tasks:
  draft:
    description: "Draft a paragraph about {subject}"
    expected_output: "One paragraph"
    agent: writer
    human_input: true
  polish:
    description: "Polish the draft about {subject}"
    expected_output: "The final paragraph"
    agent: writer
`,
  );
  return dir;
}

/** Median VmRSS of each process, sampled every second for SAMPLE_S s. */
async function sampleRss(procs) {
  const samples = procs.map(() => []);
  for (let i = 0; i < SAMPLE_S; i++) {
    for (const [j, p] of procs.entries()) samples[j].push(rssMb(p.pid));
    await sleep(1000);
  }
  return samples.map(median);
}

/** Heap and RSS right after a full GC, as reported by the preloaded gc-on-signal.mjs. */
async function afterGc(proc) {
  const seen = proc.output().length;
  process.kill(proc.pid, "SIGUSR2");
  for (let i = 0; i < 100; i++) {
    await sleep(50);
    const line = /bench-memory (\{.*\})/.exec(proc.output().slice(seen))?.[1];
    if (line) {
      const m = JSON.parse(line);
      return { rss: m.rss / 2 ** 20, heapUsed: m.heapUsed / 2 ** 20 };
    }
  }
  throw new Error(`pid ${proc.pid} did not report its memory`);
}

run(async () => {
  const crewsDir = writeCrew();
  const db = await createDatabase("crewdeck_bench_memory");
  const client = new pg.Client({ connectionString: db.url });
  try {
    const env = { DATABASE_URL: db.url, CREWS_DIR: crewsDir };
    const web = await startCrewdeck({ ...env, RUN_WORKER: "false" }, { nodeArgs: PRELOAD });
    const worker = await startWorker(
      { ...env, WORKER_CONCURRENCY: CONCURRENCY },
      { nodeArgs: PRELOAD },
    );
    await client.connect();
    await sleep(3000); // start-up settles
    const [workerIdle, webIdle] = await sampleRss([worker, web]);
    const workerIdleGc = await afterGc(worker);
    const webIdleGc = await afterGc(web);
    console.log(
      `idle: worker RSS ${workerIdle.toFixed(1)} MB (after GC ${workerIdleGc.rss.toFixed(1)} MB, heap ${workerIdleGc.heapUsed.toFixed(1)} MB), web RSS ${webIdle.toFixed(1)} MB`,
    );

    const t0 = Date.now();
    await kickoffMany(web, CREW, RUNS, (i) => ({ subject: `subject ${i}` }));
    let counts = {};
    let progressAt = Date.now();
    let lastPaused = -1;
    for (;;) {
      const { rows } = await client.query(
        "SELECT status, count(*)::int AS n FROM executions GROUP BY status",
      );
      counts = Object.fromEntries(rows.map((r) => [r.status, r.n]));
      const paused = counts.pending_human_input ?? 0;
      if (paused === RUNS) break;
      if (paused !== lastPaused) {
        lastPaused = paused;
        progressAt = Date.now();
      }
      // A run the worker dropped waits for its lease (WORKER_LEASE_MS, 30 s) to run out.
      if (Date.now() - progressAt > 60_000)
        throw new Error(
          `stuck at ${paused} of ${RUNS} paused for 60 s (WORKER_CONCURRENCY=${CONCURRENCY}): ${JSON.stringify(counts)}`,
        );
      await sleep(250);
    }
    const pauseS = (Date.now() - t0) / 1000;
    // Runs taken up again after their lease ran out: the worker had dropped them mid-task.
    const { rows: recovered } = await client.query(
      "SELECT count(*)::int AS n FROM execution_events WHERE type = 'execution_recovered'",
    );
    console.log(
      `${RUNS} executions paused for review in ${pauseS.toFixed(1)} s with WORKER_CONCURRENCY=${CONCURRENCY}: paused runs hold no worker slot` +
        (recovered[0].n
          ? ` (${recovered[0].n} of them were dropped mid-task by the worker and recovered only when their lease ran out)`
          : ""),
    );
    await sleep(3000);
    const [workerPaused, webAfter] = await sampleRss([worker, web]);
    const workerPausedGc = await afterGc(worker);
    const webAfterGc = await afterGc(web);
    const delta = workerPaused - workerIdle;
    const deltaGc = workerPausedGc.heapUsed - workerIdleGc.heapUsed;
    console.log(
      `${RUNS} paused: worker RSS ${workerPaused.toFixed(1)} MB (+${delta.toFixed(1)} MB; goal ≤ +50 MB: ${delta <= 50 ? "met" : "MISSED"}); after GC RSS ${workerPausedGc.rss.toFixed(1)} MB, heap ${workerPausedGc.heapUsed.toFixed(1)} MB (+${deltaGc.toFixed(1)} MB)`,
    );
    console.log(
      `web: RSS ${webIdle.toFixed(1)} → ${webAfter.toFixed(1)} MB after ${RUNS} kickoffs; after GC heap ${webIdleGc.heapUsed.toFixed(1)} → ${webAfterGc.heapUsed.toFixed(1)} MB`,
    );
    await Promise.all([stop(worker), stop(web)]);

    const date = stamp();
    const m = machine();
    const mb = (x) => `${x.toFixed(1)} MB`;
    const signed = (x) => `${x >= 0 ? "+" : ""}${x.toFixed(1)} MB`;
    appendResults([
      `| ${date} | ${m} | worker RSS (median of ${SAMPLE_S} s), idle → ${RUNS.toLocaleString("en")} executions paused for review (PostgreSQL, WORKER_CONCURRENCY ${CONCURRENCY}; all paused in ${pauseS.toFixed(1)} s${recovered[0].n ? `, ${recovered[0].n} after a lease expiry` : ""}) | – | – | idle ${mb(workerIdle)} | paused ${mb(workerPaused)} | ${signed(delta)} (goal ≤ +50) |`,
      `| ${date} | ${m} | worker after a forced GC, idle → ${RUNS.toLocaleString("en")} paused (heap used; RSS) | – | – | idle ${mb(workerIdleGc.heapUsed)}; ${mb(workerIdleGc.rss)} | paused ${mb(workerPausedGc.heapUsed)}; ${mb(workerPausedGc.rss)} | heap ${signed(deltaGc)} |`,
      `| ${date} | ${m} | web RSS (RUN_WORKER=false, median of ${SAMPLE_S} s), idle → after ${RUNS.toLocaleString("en")} kickoffs | – | – | idle ${mb(webIdle)} | after ${mb(webAfter)} | ${signed(webAfter - webIdle)} |`,
    ]);
  } finally {
    await client.end().catch(() => {});
    await db.drop();
  }
});
