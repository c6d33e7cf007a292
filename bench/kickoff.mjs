// POST /kickoff under load (autocannon, CONNECTIONS × DURATION s, JSON body), beside two bare
// Next.js routes on the same server: the constant-JSON GET /api/healthz, and a bare POST of
// /kickoff's shape (/api/bench/<crew>/kickoff: the body read and parsed, an answer of the same
// size; only with BENCH_ROUTES=1, set here), the yardstick of the same method and shape, as
// /status is measured against a same-shape GET.
// The four loads take turns, ROUNDS times, and each ratio is the median of its rounds': on two
// shared cores whose speed drifts from one load to the next, one round's ratios can be off by a
// fifth, and turns keep any load from having the slow stretch to itself. Beside
// req/s, the web process's CPU per request (from /proc) and its ratio to healthz's: what a kickoff
// costs, which time the machine lends elsewhere (or the load generator and PostgreSQL, on the
// same two cores) does not inflate.
// RUN_WORKER=false, so the engine does not compete: every kickoff only queues an execution.
// Targets: the embedded database, then PostgreSQL (TEST_PG_URL). Afterwards the number of
// queued executions is checked against the number of answers. Appends to RESULTS.md.
import pg from "pg";
import {
  appendResults,
  createDatabase,
  machine,
  run,
  sleep,
  stamp,
  startCrewdeck,
  stop,
} from "./common.mjs";
import { cpuMs, load } from "./measure.mjs";

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const WARMUP_S = 2;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

run(async () => {
  const db = await createDatabase("crewdeck_bench_kickoff");
  const embedded = await startCrewdeck({ RUN_WORKER: "false", BENCH_ROUTES: "1" });
  const onPg = await startCrewdeck({ RUN_WORKER: "false", DATABASE_URL: db.url });

  const kickoff = (server) => ({
    url: `${server.base()}/kickoff`,
    method: "POST",
    headers: server.headers,
    body: JSON.stringify({ inputs: { topic: "Heat pumps", audience: "home owners" } }),
  });

  // Queued executions, counted where they are stored (the stats route on the embedded database).
  const countEmbedded = async () => {
    const res = await fetch(`${embedded.url}/api/runs/stats`, { headers: embedded.headers });
    return (await res.json()).running; // queued + running; nothing runs without a worker
  };
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const countPg = async () =>
    (await client.query("SELECT count(*)::int AS n FROM executions WHERE status = 'queued'"))
      .rows[0].n;

  const loads = [
    {
      name: "bare Next.js route, constant JSON (/api/healthz)",
      server: embedded,
      options: { url: `${embedded.url}/api/healthz` },
    },
    {
      name: "bare POST of /kickoff's shape (/api/bench/…/kickoff)",
      server: embedded,
      options: { ...kickoff(embedded), url: `${embedded.url}/api/bench/research-brief/kickoff` },
    },
    {
      name: "Crewdeck POST /kickoff (embedded, RUN_WORKER=false)",
      server: embedded,
      options: kickoff(embedded),
      count: countEmbedded,
    },
    {
      name: "Crewdeck POST /kickoff (PostgreSQL, RUN_WORKER=false)",
      server: onPg,
      options: kickoff(onPg),
      count: countPg,
    },
  ];

  const measure = async ({ name, server, options, count }) => {
    await load({ ...options, connections: CONNECTIONS, duration: WARMUP_S }); // JIT, first compile
    await sleep(1000); // let the requests still in flight finish before counting
    const before = count ? await count() : 0;
    const cpu0 = cpuMs(server.pid);
    const r = await load({ ...options, connections: CONNECTIONS, duration: DURATION });
    const cpu = cpuMs(server.pid) - cpu0;
    await sleep(1000);
    const stored = count ? (await count()) - before : undefined;
    const cpuPerRequest = cpu / r.total;
    console.log(
      `${name.padEnd(58)} ${String(r.rps).padStart(6)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  ` +
        `web CPU ${cpuPerRequest.toFixed(3)} ms/request` +
        (count ? `  (${r.total} answers, ${stored} executions queued)` : ""),
    );
    // autocannon stops counting at the deadline: up to CONNECTIONS requests are still in flight.
    if (count && (stored < r.total || stored > r.total + CONNECTIONS))
      throw new Error(`${name}: ${r.total} kickoffs answered but ${stored} executions queued`);
    return { ...r, cpuPerRequest };
  };

  const rounds = [];
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`round ${round} of ${ROUNDS}`);
    const results = [];
    for (const l of loads) results.push(await measure(l));
    rounds.push(results);
  }
  await client.end();
  await stop(onPg);
  await db.drop();

  // Per load: median req/s, p50, p99, CPU per request; median ratios to each bare route, each
  // ratio taken within its round.
  const summary = loads.map((l, i) => {
    const of = (f) => median(rounds.map((r) => f(r[i], r)));
    return {
      name: l.name,
      rps: of((x) => x.rps),
      p50: of((x) => x.p50),
      p99: of((x) => x.p99),
      cpu: of((x) => x.cpuPerRequest),
      // The cost ratio: healthz's web CPU per request over this load's, within each round.
      costVsGet: of((x, r) => r[0].cpuPerRequest / x.cpuPerRequest),
      vsGet: of((x, r) => x.rps / r[0].rps),
      vsPost: of((x, r) => x.rps / r[1].rps),
      spreadGet: rounds.map((r) => (r[i].rps / r[0].rps).toFixed(2)).join("/"),
      spreadPost: rounds.map((r) => (r[i].rps / r[1].rps).toFixed(2)).join("/"),
    };
  });
  const date = stamp();
  const m = machine();
  appendResults(
    summary.map(
      (s, i) =>
        `| ${date} | ${m} | ${s.name}, median of ${ROUNDS} interleaved rounds | ${CONNECTIONS} × ${DURATION} | ${s.rps} | ${s.p50} | ${s.p99} | ` +
        (i === 0
          ? `1.00 of healthz; web CPU ${s.cpu.toFixed(3)} ms/req |`
          : `${s.vsGet.toFixed(2)} of healthz (${s.spreadGet})` +
            (i >= 2 ? `, ${s.vsPost.toFixed(2)} of the bare POST (${s.spreadPost})` : "") +
            `; web CPU ${s.cpu.toFixed(3)} ms/req = ${s.costVsGet.toFixed(2)} of healthz's cost |`),
    ),
  );
  console.log(`\nmedians of ${ROUNDS} rounds (each round's ratios in brackets):`);
  for (const s of summary.slice(1))
    console.log(
      `${s.name}: ${s.vsGet.toFixed(2)} × the bare GET (${s.spreadGet})` +
        (s.name.startsWith("Crewdeck")
          ? `, ${s.vsPost.toFixed(2)} × the bare POST (${s.spreadPost})`
          : "") +
        `; web CPU ${s.cpu.toFixed(3)} ms/request (healthz ${summary[0].cpu.toFixed(3)}): ` +
        `${s.costVsGet.toFixed(2)} × healthz's cost`,
    );
});
