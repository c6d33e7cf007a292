// Live timeline fan-out: SUBSCRIBERS Server-Sent Events streams (raw HTTP, `id:`/`data:` lines
// parsed here) on one running execution; the time from a step being written (its `created_at`,
// set by the writing process in the transaction that stores it) to it reaching each subscriber
// (Date.now() here: one machine, one clock). p50/p95/max over every event × subscriber.
// The execution runs a crew written for this benchmark (in a temporary CREWS_DIR): a first task
// that pauses for review, so every subscriber is connected before the steps flow, then TASKS
// tasks of 10 events each, the offline model taking OFFLINE_MODEL_DELAY_MS per step. Only events
// written after the approval count. Targets:
//   embedded — one process: web, engine and database;
//   PostgreSQL, 1 web instance + a separate worker;
//   PostgreSQL, 2 web instances (half the subscribers each) + a separate worker: the fan-out
//   goes through LISTEN/NOTIFY.
// Bounded (each run finishes in seconds; 120 s timeout); stops what it started. Appends to RESULTS.md.
import fs from "node:fs";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
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
import { cpuMs, kickoffMany, percentile, readTimeline } from "./measure.mjs";

const SUBSCRIBERS = Number(process.env.SUBSCRIBERS ?? 200);
const TASKS = Number(process.env.TASKS ?? 8);
const DELAY_MS = process.env.OFFLINE_MODEL_DELAY_MS ?? "100";
const CREW = "bench-live";

function writeCrew() {
  const dir = tempDir("crewdeck-bench-crews-");
  const steps = Array.from(
    { length: TASKS },
    (_, i) => `  step_${i + 1}:
    description: "Step ${i + 1} of {job}"
    expected_output: "Notes on step ${i + 1}"
    agent: worker
`,
  ).join("");
  fs.mkdirSync(path.join(dir, CREW));
  fs.writeFileSync(
    path.join(dir, CREW, "crew.yaml"),
    `name: Live timeline benchmark
agents:
  worker:
    role: "Step worker"
    goal: "Work on {job}"
    backstory: "Methodical."
    tools: [current_date, word_count]
tasks:
  gate:
    description: "Get ready for {job}"
    expected_output: "Ready"
    agent: worker
    human_input: true
${steps}`,
  );
  return dir;
}

/** One SSE subscriber: resolves `ready` once subscribed (the `retry:` line), `done` at the end. */
function subscribe(server, id) {
  const received = []; // { seq, writtenAt, receivedAt }
  let ready;
  let done;
  const readyP = new Promise((r) => (ready = r));
  const doneP = new Promise((r) => (done = r));
  const close = readTimeline(
    `${server.base(CREW)}/executions/${id}/stream`,
    server.headers.authorization,
    {
      onReady: () => ready(),
      onEvent: (e, receivedAt) =>
        received.push({ seq: e.seq, writtenAt: Date.parse(e.created_at), receivedAt }),
      onEnd: (ok) => done(ok),
    },
  );
  return { received, ready: readyP, done: doneP, close };
}

async function scenario(label, webs, { subscribers = SUBSCRIBERS, counters, engine } = {}) {
  const [first] = webs;
  const [id] = await kickoffMany(first, CREW, 1, () => ({ job: "the benchmark" }));
  for (let i = 0; ; i++) {
    const res = await fetch(`${first.base(CREW)}/status/${id}`, { headers: first.headers });
    const { status } = await res.json();
    if (status === "pending_human_input") break;
    if (i > 600) throw new Error(`${label}: the gate task did not pause (${status})`);
    await sleep(50);
  }
  // Connect in groups, spread over the instances.
  const subs = [];
  for (let i = 0; i < subscribers; i += 20) {
    const group = Array.from({ length: Math.min(20, subscribers - i) }, (_, j) =>
      subscribe(webs[(i + j) % webs.length], id),
    );
    await Promise.all(group.map((s) => s.ready));
    subs.push(...group);
  }
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const before = await counters?.();
  // CPU of the processes serving the streams (and of the engine's process when separate).
  const servers = [...webs, ...(engine ? [engine] : [])];
  const cpu0 = servers.map((p) => cpuMs(p.pid));
  const resumedAt = Date.now();
  const res = await fetch(`${first.base(CREW)}/resume`, {
    method: "POST",
    headers: first.headers,
    body: JSON.stringify({
      execution_id: id,
      task_id: "gate",
      human_feedback: "",
      is_approve: true,
    }),
  });
  if (!res.ok) throw new Error(`${label}: resume ${res.status} ${await res.text()}`);
  const timeout = setTimeout(() => {
    for (const s of subs) s.close();
  }, 120_000);
  const ended = await Promise.all(subs.map((s) => s.done));
  clearTimeout(timeout);
  loop.disable();
  const webCpu = webs.reduce((sum, p, i) => sum + cpuMs(p.pid) - cpu0[i], 0);
  const engineCpu = engine ? cpuMs(engine.pid) - cpu0.at(-1) : undefined;
  // One `created_at` per committed change (all events of a transaction share it).
  const changes = new Set(
    subs[0].received.filter((e) => e.writtenAt >= resumedAt).map((e) => e.writtenAt),
  ).size;
  let readsPerChange;
  if (counters) {
    // Backends report their counters when idle, up to 10 s later if they reported < 1 s before.
    await sleep(11_000);
    readsPerChange = ((await counters()) - before) / changes;
  }

  const latencies = [];
  const lastSeq = Math.max(...subs.flatMap((s) => s.received.map((e) => e.seq)));
  let incomplete = ended.filter((e) => !e).length;
  let liveEvents = 0;
  for (const s of subs) {
    const seqs = new Set(s.received.map((e) => e.seq));
    if (seqs.size !== lastSeq) incomplete++;
    const live = s.received.filter((e) => e.writtenAt >= resumedAt);
    liveEvents = Math.max(liveEvents, live.length);
    for (const e of live) latencies.push(e.receivedAt - e.writtenAt);
  }
  latencies.sort((a, b) => a - b);
  const r = {
    label,
    subscribers: subs.length,
    liveEvents,
    samples: latencies.length,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    max: latencies.at(-1),
    incomplete,
    benchLoopP99: Math.round(loop.percentile(99) / 1e6),
    runMs: Math.max(...subs.flatMap((s) => s.received.map((e) => e.receivedAt))) - resumedAt,
    readsPerChange,
    changes,
    webCpuPerChange: webCpu / changes,
    engineCpuPerChange: engineCpu === undefined ? undefined : engineCpu / changes,
  };
  console.log(
    `${label.padEnd(52)} ${r.liveEvents} live events × ${r.subscribers} subscribers: write → subscriber p50 ${r.p50} ms  p95 ${r.p95} ms  max ${r.max} ms` +
      `\n    ${r.incomplete} subscribers incomplete; run ${(r.runMs / 1000).toFixed(1)} s, ${changes} committed changes; CPU per change: web ${r.webCpuPerChange.toFixed(1)} ms` +
      (engine ? `, worker ${r.engineCpuPerChange.toFixed(1)} ms` : "") +
      (readsPerChange === undefined
        ? ""
        : `; ≈${readsPerChange.toFixed(0)} event-log reads per change`) +
      `; this process's event-loop delay p99 ${r.benchLoopP99} ms`,
  );
  return r;
}

run(async () => {
  const crewsDir = writeCrew();
  const common = {
    CREWS_DIR: crewsDir,
    OFFLINE_MODEL_DELAY_MS: DELAY_MS,
    // Every subscriber here is the same caller (one token): above the per-caller cap of 50 the
    // streams would be refused (429), and the fan-out would not be measured.
    STREAM_LIMIT_PER_CALLER: String(SUBSCRIBERS + 10),
  };
  const results = [];

  // Each target first with one subscriber: the latency without fan-out, to compare with.
  const embedded = await startCrewdeck(common);
  results.push(await scenario("embedded (one process)", [embedded], { subscribers: 1 }));
  results.push(await scenario("embedded (one process)", [embedded]));
  await stop(embedded);

  const db = await createDatabase("crewdeck_bench_live");
  const client = new pg.Client({ connectionString: db.url });
  try {
    const onPg = { ...common, DATABASE_URL: db.url };
    const worker = await startWorker(onPg);
    const web1 = await startCrewdeck({ ...onPg, RUN_WORKER: "false" });
    await client.connect();
    // Reads of the event log (index scans on execution_events), from PostgreSQL's counters.
    const counters = async () =>
      (
        await client.query(
          "SELECT (seq_scan + coalesce(idx_scan, 0))::int AS n FROM pg_stat_user_tables WHERE relname = 'execution_events'",
        )
      ).rows[0].n;
    const one = "PostgreSQL, 1 web instance + worker";
    results.push(await scenario(one, [web1], { subscribers: 1, engine: worker }));
    results.push(await scenario(one, [web1], { counters, engine: worker }));
    const web2 = await startCrewdeck({ ...onPg, RUN_WORKER: "false" });
    results.push(
      await scenario("PostgreSQL, 2 web instances + worker (LISTEN/NOTIFY)", [web1, web2], {
        counters,
        engine: worker,
      }),
    );
    await Promise.all([stop(web1), stop(web2), stop(worker)]);
  } finally {
    await client.end().catch(() => {});
    await db.drop();
  }

  const date = stamp();
  const m = machine();
  appendResults(
    results.map(
      (r) =>
        `| ${date} | ${m} | live timeline: ${r.subscribers} SSE subscriber${r.subscribers > 1 ? "s" : ""} on 1 execution, ${r.liveEvents} events ${DELAY_MS} ms/model step, ${r.label} | – | – | write → subscriber p50 ${r.p50} | p95 ${r.p95} | max ${r.max}${r.incomplete ? `, ${r.incomplete} incomplete` : ""}; web CPU ${r.webCpuPerChange.toFixed(1)} ms/change${r.readsPerChange === undefined ? "" : `, ≈${r.readsPerChange.toFixed(0)} event-log reads/change`} |`,
    ),
  );
});
