// GET /status with SMALL_ROWS (1,000) vs LARGE_ROWS (1,000,000) executions stored. Goal: p50
// within 1.2× between the two. The history is copies of one real completed execution of the
// example crew (its row with new ids and older created_at; its events exist, the copies' do not:
// /status never reads events), written by INSERT … SELECT … generate_series while no server runs.
// Two databases side by side, one server on each, measured in alternation (ROUNDS rounds, the
// order flipped each round) so that background load on the machine hits both alike.
// Two loads (autocannon, CONNECTIONS × DURATION s):
//   one id     — the same execution every time: served by the per-process execution cache;
//   rotating   — a different id every request, none of them stored: each one misses the cache
//                (which never keeps "not found") and does the primary-key lookup, answering 404.
//                With only 1,000 rows stored, stored ids would soon all be cached, so this is the
//                one way to compare the index at both sizes alike.
// On PostgreSQL (TEST_PG_URL), with its counters (index scans, blocks read per request) and the
// bare lookup timed from a client. With SCALE_EMBEDDED=1 also (=only: only) on the embedded database, filled
// with @electric-sql/pglite directly (the server owns it while it runs): ~2.5 min for 1M rows,
// so not by default. Stops what it starts, drops its databases. Appends to RESULTS.md.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
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
  tempDir,
} from "./common.mjs";
import { kickoffMany, load } from "./measure.mjs";

const SMALL = Number(process.env.SMALL_ROWS ?? 1_000);
const LARGE = Number(process.env.LARGE_ROWS ?? 1_000_000);
const ROTATE_IDS = Number(process.env.ROTATE_IDS ?? 20_000);
const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const EMBEDDED = process.env.SCALE_EMBEDDED === "1" || process.env.SCALE_EMBEDDED === "only";
const POSTGRES = process.env.SCALE_EMBEDDED !== "only";
const CHUNK = 100_000;
const CREW = "research-brief";
const SUMMARY_COLUMNS =
  "id, crew, status, owner_user_id, tasks, current_task, pending_human_input, last_step, result, error, created_at, updated_at, started_at, finished_at";

/** Runs one execution to completion; returns its id (the template of the history). */
async function realExecution(env) {
  const web = await startCrewdeck(env);
  const [id] = await kickoffMany(web, CREW, 1, () => ({ topic: "Heat pumps", audience: "all" }));
  for (let i = 0; ; i++) {
    const res = await fetch(`${web.base(CREW)}/status/${id}`, { headers: web.headers });
    const { status } = await res.json();
    if (status === "completed") break;
    if (status === "error" || i > 500) throw new Error(`template execution: ${status}`);
    await sleep(20);
  }
  await stop(web);
  return id;
}

/**
 * Adds copies of the template until `total` rows are stored; `query(sql, params)` → rows. On
 * PostgreSQL it also vacuums, so that autovacuum does not scan the new rows during the loads.
 */
async function fillTo(query, template, total, { vacuum = false } = {}) {
  const [{ n: have }] = await query("SELECT count(*)::int AS n FROM executions");
  const cols = (
    await query(
      "SELECT column_name AS c FROM information_schema.columns WHERE table_name = 'executions' ORDER BY ordinal_position",
    )
  )
    .map((r) => r.c)
    .filter((c) => c !== "id" && c !== "created_at");
  const t0 = Date.now();
  for (let from = have; from < total; from += CHUNK) {
    const to = Math.min(total, from + CHUNK);
    await query(
      `INSERT INTO executions (id, created_at, ${cols.join(", ")})
       SELECT gen_random_uuid(), t.created_at - g * interval '1 second', ${cols.map((c) => `t.${c}`).join(", ")}
         FROM executions t, generate_series($1::int, $2::int) g WHERE t.id = $3`,
      [from, to - 1, template],
    );
    if (total - have > CHUNK) process.stdout.write(`  ${to.toLocaleString("en")} rows…\r`);
  }
  if (total - have > CHUNK) process.stdout.write("\n");
  await query(vacuum ? "VACUUM (ANALYZE) executions" : "ANALYZE executions");
  const ids = (
    await query(
      "SELECT id::text AS id FROM executions WHERE id <> $1 ORDER BY random() LIMIT $2::int",
      [template, ROTATE_IDS],
    )
  ).map((r) => r.id);
  const [plan] = await query(`EXPLAIN SELECT status FROM executions WHERE id = '${template}'`);
  console.log(
    `  ${total.toLocaleString("en")} executions stored (${((Date.now() - t0) / 1000).toFixed(1)} s to fill; ${Object.values(plan)[0]})`,
  );
  return ids;
}

/** Paths that never repeat: random ids, none of which is stored. */
function rotatingPaths(base) {
  return () => `${base}/${crypto.randomUUID()}`;
}

const STATIO = `SELECT s.idx_scan::float8 AS lookups,
       (io.heap_blks_read + io.idx_blks_read + coalesce(io.toast_blks_read, 0) + coalesce(io.tidx_blks_read, 0))::float8 AS blocks_read,
       (io.heap_blks_hit + io.idx_blks_hit + coalesce(io.toast_blks_hit, 0) + coalesce(io.tidx_blks_hit, 0))::float8 AS blocks_hit
  FROM pg_stat_user_tables s JOIN pg_statio_user_tables io USING (relid) WHERE s.relname = 'executions'`;

/** One load on one target; with `counters`, what PostgreSQL did per request meanwhile. */
async function measureOnce(target, kind) {
  const { web, template, counters } = target;
  // One sequence per target for the whole run: a key requested once is never requested again.
  target.next ??= rotatingPaths(`${new URL(web.base(CREW)).pathname}/status`);
  const options =
    kind === "one"
      ? { url: `${web.base(CREW)}/status/${template}`, headers: web.headers }
      : {
          url: web.url,
          headers: web.headers,
          requests: [{ method: "GET", setupRequest: (req) => ({ ...req, path: target.next() }) }],
        };
  const accept = kind === "one" ? [200] : [404];
  await load({ ...options, connections: CONNECTIONS, duration: 2 }, { accept }); // warm-up
  const before = await counters?.();
  const r = await load({ ...options, connections: CONNECTIONS, duration: DURATION }, { accept });
  if (counters) {
    await sleep(1500); // backends report their counters when idle (mostly within 1 s)
    const after = await counters();
    for (const k of Object.keys(after)) r[k] = (after[k] - before[k]) / r.total;
  }
  return r;
}

/** The primary-key SELECT of /status from one client, one at a time: mean ms per lookup. */
async function bareLookup(query, ids, n = 2_000) {
  const t0 = performance.now();
  for (let i = 0; i < n; i++)
    await query(`SELECT ${SUMMARY_COLUMNS} FROM executions WHERE id = $1`, [ids[i % ids.length]]);
  return (performance.now() - t0) / n;
}

async function compare(label, small, large) {
  const runs = { small: { one: [], rotating: [] }, large: { one: [], rotating: [] } };
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of ["one", "rotating"]) {
      const order = round % 2 ? ["large", "small"] : ["small", "large"];
      for (const size of order) {
        const r = await measureOnce(size === "small" ? small : large, kind);
        runs[size][kind].push(r);
        console.log(
          `  ${label}, ${(size === "small" ? SMALL : LARGE).toLocaleString("en").padStart(9)} rows, ${kind === "one" ? "one id (cached)      " : "rotating (cache miss)"}: ${String(r.rps).padStart(5)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms` +
            (r.lookups === undefined
              ? ""
              : `  per request ≈ ${r.lookups.toFixed(2)} index lookups, ${r.blocks_hit.toFixed(1)} blocks from shared_buffers, ${r.blocks_read.toFixed(1)} from outside`),
        );
      }
    }
  }
  const mean = (xs, k) => xs.reduce((s, x) => s + x[k], 0) / xs.length;
  const summary = {};
  for (const size of ["small", "large"])
    for (const kind of ["one", "rotating"]) {
      const xs = runs[size][kind];
      summary[`${size}/${kind}`] = {
        rps: Math.round(mean(xs, "rps")),
        p50: mean(xs, "p50"),
        p99: mean(xs, "p99"),
        blocksRead: xs[0].blocks_read === undefined ? undefined : mean(xs, "blocks_read"),
      };
    }
  return summary;
}

async function postgres() {
  const small = await createDatabase("crewdeck_bench_scale_small");
  let large;
  try {
    const template = await realExecution({ DATABASE_URL: small.url });
    const fill = async (url, total) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return await fillTo(async (sql, p) => (await client.query(sql, p)).rows, template, total, {
          vacuum: true,
        });
      } finally {
        await client.end();
      }
    };
    const smallIds = await fill(small.url, SMALL);
    large = await createDatabase("crewdeck_bench_scale_large", {
      template: "crewdeck_bench_scale_small",
    });
    const largeIds = await fill(large.url, LARGE);
    const targets = [];
    for (const [db, ids] of [
      [small, smallIds],
      [large, largeIds],
    ]) {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const query = async (sql, p) => (await client.query(sql, p)).rows;
      targets.push({
        web: await startCrewdeck({ DATABASE_URL: db.url, RUN_WORKER: "false" }),
        template,
        ids,
        client,
        query,
        counters: async () => (await query(STATIO))[0],
      });
    }
    const summary = await compare("PostgreSQL", ...targets);
    for (const [size, t] of [
      ["small", targets[0]],
      ["large", targets[1]],
    ]) {
      summary[`${size}/bare`] = await bareLookup(t.query, t.ids);
      await t.client.end();
      await stop(t.web);
    }
    return summary;
  } finally {
    await large?.drop();
    await small.drop();
  }
}

async function embedded() {
  const smallDir = tempDir("crewdeck-bench-scale-");
  const largeDir = tempDir("crewdeck-bench-scale-");
  const template = await realExecution({ DATA_DIR: smallDir });
  // The servers are stopped here, so this process may open the database files.
  const open = async (dir, fn) => {
    const db = await PGlite.create(path.join(dir, "pgdata"));
    try {
      return await fn(async (sql, p) => (await db.query(sql, p)).rows);
    } finally {
      await db.close();
    }
  };
  const bare = {};
  const fill = async (dir, total, size) => {
    const ids = await open(dir, (query) => fillTo(query, template, total));
    // The lookup alone, in a freshly opened database as the server will have it.
    bare[size] = await open(dir, (query) => bareLookup(query, ids));
    return ids;
  };
  const smallIds = await fill(smallDir, SMALL, "small");
  fs.cpSync(path.join(smallDir, "pgdata"), path.join(largeDir, "pgdata"), { recursive: true });
  const largeIds = await fill(largeDir, LARGE, "large");
  const targets = [];
  for (const [dir, ids] of [
    [smallDir, smallIds],
    [largeDir, largeIds],
  ])
    targets.push({
      web: await startCrewdeck({ DATA_DIR: dir, RUN_WORKER: "false" }),
      template,
      ids,
    });
  const summary = await compare("embedded", ...targets);
  for (const t of targets) await stop(t.web);
  summary["small/bare"] = bare.small;
  summary["large/bare"] = bare.large;
  return summary;
}

run(async () => {
  const date = stamp();
  const m = machine();
  const lines = [];
  const verdicts = [];
  for (const [db, scenario] of [
    ...(POSTGRES ? [["PostgreSQL", postgres]] : []),
    ...(EMBEDDED ? [["embedded", embedded]] : []),
  ]) {
    console.log(`${db}:`);
    const s = await scenario();
    for (const kind of ["one", "rotating"]) {
      const what = kind === "one" ? "one id, cached" : "a different id each request, cache misses";
      const small = s[`small/${kind}`];
      const large = s[`large/${kind}`];
      const ratio = large.p50 / small.p50;
      verdicts.push(
        `${db}, ${what}: p50 ${small.p50.toFixed(1)} → ${large.p50.toFixed(1)} ms = ${ratio.toFixed(2)}× (goal ≤ 1.2×: ${ratio <= 1.2 ? "met" : "MISSED"}); req/s ${small.rps} → ${large.rps}` +
          (small.blocksRead === undefined
            ? ""
            : `; blocks read from outside shared_buffers per request ${small.blocksRead.toFixed(1)} → ${large.blocksRead.toFixed(1)}`),
      );
      for (const [rows, r, note] of [
        [SMALL, small, ""],
        [LARGE, large, `p50 ${ratio.toFixed(2)}× of ${SMALL.toLocaleString("en")}`],
      ])
        lines.push(
          `| ${date} | ${m} | Crewdeck GET /status, ${rows.toLocaleString("en")} executions stored, ${what} (${db}, mean of ${ROUNDS}) | ${CONNECTIONS} × ${DURATION} | ${r.rps} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${note} |`,
        );
    }
    if (s["small/bare"] !== undefined) {
      verdicts.push(
        `${db}, the same SELECT ${db === "embedded" ? "in process (PGlite)" : "from one client"}, one at a time: ${s["small/bare"].toFixed(3)} ms → ${s["large/bare"].toFixed(3)} ms per lookup`,
      );
      lines.push(
        `| ${date} | ${m} | bare primary-key SELECT of /status, ${db === "embedded" ? "PGlite in process" : "1 client"}, one at a time, ${SMALL.toLocaleString("en")} → ${LARGE.toLocaleString("en")} executions (${db}) | 1 × – | – | ${s["small/bare"].toFixed(3)} → ${s["large/bare"].toFixed(3)} ms | | |`,
      );
    }
  }
  appendResults(lines);
  console.log(verdicts.join("\n"));
});
