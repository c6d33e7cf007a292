// POST /kickoff under load (autocannon, CONNECTIONS × DURATION s, JSON body), beside the bare
// Next.js constant-JSON route (/api/healthz) measured in the same run on the same server — the
// target's yardstick — and, to tell Next.js's own cost of a POST from ours, a bare POST of
// /kickoff's shape (/api/bench/<crew>/kickoff: the body read and parsed, an answer of the same
// size; only with BENCH_ROUTES=1, set here).
// RUN_WORKER=false, so the engine does not compete: every kickoff only queues an execution.
// Targets: the embedded database, then PostgreSQL (TEST_PG_URL). Afterwards the number of
// queued executions is checked against the number of answers. Appends to RESULTS.md.
import pg from "pg";
import {
  appendResults,
  createDatabase,
  load,
  machine,
  run,
  sleep,
  stamp,
  startCrewdeck,
  stop,
} from "./common.mjs";

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);
const WARMUP_S = 2;

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
  const rows = [];
  const measure = async (name, options, { count } = {}) => {
    await load({ ...options, connections: CONNECTIONS, duration: WARMUP_S }); // JIT, first compile
    await sleep(1000); // let the requests still in flight finish before counting
    const before = count ? await count() : 0;
    const r = await load({ ...options, connections: CONNECTIONS, duration: DURATION });
    await sleep(1000);
    const stored = count ? (await count()) - before : undefined;
    rows.push({ name, ...r });
    console.log(
      `${name.padEnd(58)} ${String(r.rps).padStart(6)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms` +
        (count ? `  (${r.total} answers, ${stored} executions queued)` : ""),
    );
    // autocannon stops counting at the deadline: up to CONNECTIONS requests are still in flight.
    if (count && (stored < r.total || stored > r.total + CONNECTIONS))
      throw new Error(`${name}: ${r.total} kickoffs answered but ${stored} executions queued`);
  };

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

  await measure("bare Next.js route, constant JSON (/api/healthz)", {
    url: `${embedded.url}/api/healthz`,
  });
  await measure("bare POST of /kickoff's shape (/api/bench/…/kickoff)", {
    ...kickoff(embedded),
    url: `${embedded.url}/api/bench/research-brief/kickoff`,
  });
  await measure("Crewdeck POST /kickoff (embedded, RUN_WORKER=false)", kickoff(embedded), {
    count: countEmbedded,
  });
  await measure("Crewdeck POST /kickoff (PostgreSQL, RUN_WORKER=false)", kickoff(onPg), {
    count: countPg,
  });
  await client.end();
  await stop(onPg);
  await db.drop();

  const bare = rows[0].rps;
  const date = stamp();
  const m = machine();
  appendResults(
    rows.map(
      (r) =>
        `| ${date} | ${m} | ${r.name} | ${CONNECTIONS} × ${DURATION} | ${r.rps} | ${r.p50} | ${r.p99} | ${(r.rps / bare).toFixed(2)} of healthz |`,
    ),
  );
  const barePost = rows[1].rps;
  for (const r of rows.slice(1))
    console.log(
      `${r.name}: ${(r.rps / bare).toFixed(2)} × the bare Next.js route` +
        (r.name.startsWith("Crewdeck") ? `, ${(r.rps / barePost).toFixed(2)} × the bare POST` : ""),
    );
});
