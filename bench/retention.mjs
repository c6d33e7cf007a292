// GET /status p95 with no retention work vs while the retention sweeper deletes OLD_RUNS old
// executions (default 1,000,000), on PostgreSQL (TEST_PG_URL; bench/run.sh starts one). Goal: p95
// rises by at most 20 %.
//
// One `next start` (web + in-process worker, the default deployment) on a fresh database. The old
// runs are copies of one real completed run of a bench crew (its row with new ids, finished 100
// days ago, EVENTS_PER_RUN events each so the cascade has work), written with INSERT … SELECT …
// generate_series; RECENT_RUNS recent copies of another crew are what /status reads. No retention
// applies at first (RETENTION_DAYS unset, the crew has no retention_days): baseline. Then the
// crew's file gets `retention_days: 30`; the server reloads it and its sweeper starts deleting —
// the same process, nothing restarted. Measured in rounds of two loads (autocannon, CONNECTIONS ×
// WINDOW s each, p95 from every response's time):
//   cached  — one stored id every time (the per-process execution cache answers);
//   reads   — a random recent stored id each request (mostly cache misses: a primary-key read).
// During deletion, rounds go on until no old run is left or MAX_DURING_S has passed (bounded).
// Loopback only; stops what it starts; drops its database. Appends to RESULTS.md.
import fs from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
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
import { percentile } from "./measure.mjs";

const OLD_RUNS = Number(process.env.OLD_RUNS ?? 1_000_000);
const RECENT_RUNS = Number(process.env.RECENT_RUNS ?? 50_000);
const EVENTS_PER_RUN = Number(process.env.EVENTS_PER_RUN ?? 3);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 16);
const WINDOW = Number(process.env.WINDOW ?? 10);
const BASE_ROUNDS = Number(process.env.BASE_ROUNDS ?? 3);
const MAX_DURING_S = Number(process.env.MAX_DURING_S ?? 600);
const CHUNK = 100_000;

const crewYaml = (extra = "") =>
  `${extra}name: Bench
agents:
  writer:
    role: Writer
    goal: Write about {subject}
    backstory: Brief.
tasks:
  write:
    description: Write about {subject}
    expected_output: A line
    agent: writer
`;

/** autocannon for WINDOW s; every response's time kept, so the p95 is exact. */
function window(url, headers, nextPath) {
  return new Promise((resolve, reject) => {
    const times = [];
    let bad = 0;
    const instance = autocannon(
      {
        url,
        headers,
        connections: CONNECTIONS,
        duration: WINDOW,
        requests: [{ method: "GET", setupRequest: (req) => ({ ...req, path: nextPath() }) }],
      },
      (err, r) => {
        if (err) return reject(err);
        if (bad || r.errors) return reject(new Error(`${bad} non-200 answers, ${r.errors} errors`));
        resolve(times);
      },
    );
    instance.on("response", (_client, status, _bytes, ms) => {
      if (status !== 200) bad++;
      times.push(ms);
    });
  });
}

const p95 = (times) =>
  percentile(
    [...times].sort((a, b) => a - b),
    95,
  );

async function main() {
  const db = await createDatabase("crewdeck_bench_retention");
  const client = new pg.Client({ connectionString: db.url });
  const crews = tempDir("crewdeck-bench-retention-crews-");
  for (const slug of ["old-runs", "recent-runs"]) {
    fs.mkdirSync(path.join(crews, slug));
    fs.writeFileSync(path.join(crews, slug, "crew.yaml"), crewYaml());
  }
  const server = await startCrewdeck({
    DATABASE_URL: db.url,
    CREWS_DIR: crews,
    RETENTION_SWEEP_MS: "2000",
  });
  try {
    await client.connect();
    const q = async (sql, params) => (await client.query(sql, params)).rows;

    // One real run per crew: the templates of the copies.
    const template = {};
    for (const slug of ["old-runs", "recent-runs"]) {
      const res = await fetch(`${server.base(slug)}/kickoff`, {
        method: "POST",
        headers: server.headers,
        body: JSON.stringify({ inputs: { subject: "tides" } }),
      });
      const id = (await res.json()).kickoff_id;
      for (;;) {
        const s = await (
          await fetch(`${server.base(slug)}/status/${id}`, { headers: server.headers })
        ).json();
        if (s.state === "SUCCESS" || s.status === "completed") break;
        await sleep(50);
      }
      template[slug] = id;
    }
    const cols = (
      await q(
        "SELECT column_name AS c FROM information_schema.columns WHERE table_name = 'executions'",
      )
    )
      .map((r) => r.c)
      .filter((c) => !["id", "created_at", "updated_at", "finished_at"].includes(c));
    const copy = async (slug, total, ageDays) => {
      for (let from = 0; from < total; from += CHUNK) {
        const to = Math.min(total, from + CHUNK);
        await q(
          `INSERT INTO executions (id, created_at, updated_at, finished_at, ${cols.join(", ")})
           SELECT gen_random_uuid(), t.created_at - $4::int * interval '1 day' - g * interval '1 second',
                  t.updated_at - $4::int * interval '1 day' - g * interval '1 second',
                  t.finished_at - $4::int * interval '1 day' - g * interval '1 second',
                  ${cols.map((c) => `t.${c}`).join(", ")}
             FROM executions t, generate_series($1::int, $2::int) g WHERE t.id = $3`,
          [from, to - 1, template[slug], ageDays],
        );
        process.stdout.write(`  ${slug}: ${to.toLocaleString("en")} rows…\r`);
      }
      process.stdout.write("\n");
    };
    const t0 = Date.now();
    await copy("old-runs", OLD_RUNS, 100);
    await copy("recent-runs", RECENT_RUNS, 0);
    // The old runs' events, for the cascade (the copies of the recent crew have none: /status
    // does not read events).
    await q(
      `INSERT INTO execution_events (execution_id, seq, type, task_id, attempt, data, created_at)
       SELECT e.id, s, 'task_completed', 'write', 1, '{"output":"A line about tides."}'::jsonb, e.finished_at
         FROM executions e, generate_series(1, $1::int) s
        WHERE e.crew = 'old-runs' AND e.id <> $2`,
      [EVENTS_PER_RUN, template["old-runs"]],
    );
    await q("VACUUM (ANALYZE) executions");
    await q("VACUUM (ANALYZE) execution_events");
    const fillS = ((Date.now() - t0) / 1000).toFixed(0);
    console.log(
      `${OLD_RUNS.toLocaleString("en")} old runs (+${EVENTS_PER_RUN} events each) and ${RECENT_RUNS.toLocaleString("en")} recent ones written in ${fillS} s`,
    );
    const recent = (
      await q("SELECT id::text AS id FROM executions WHERE crew = 'recent-runs' ORDER BY random()")
    ).map((r) => r.id);
    const headers = { authorization: server.headers.authorization };
    const one = `/api/crews/recent-runs/status/${template["recent-runs"]}`;
    let next = 0;
    const reads = () => `/api/crews/recent-runs/status/${recent[next++ % recent.length]}`;
    const left = async () =>
      Number(
        (
          await q(
            "SELECT count(*)::int AS n FROM executions WHERE crew = 'old-runs' AND id <> $1",
            [template["old-runs"]],
          )
        )[0].n,
      );

    const sample = { base: { cached: [], reads: [] }, during: { cached: [], reads: [] } };
    // Each window's own p95 too: the pooled figure weighs fast windows (more requests) more.
    const windows = { base: { cached: [], reads: [] }, during: { cached: [], reads: [] } };
    const round = async (into, perWindow) => {
      for (const [load, path] of [
        ["cached", () => one],
        ["reads", reads],
      ]) {
        const times = await window(server.url, headers, path);
        into[load].push(...times);
        perWindow?.[load].push(Number(p95(times)));
      }
    };
    await round({ cached: [], reads: [] }); // warm-up, not counted
    for (let i = 0; i < BASE_ROUNDS; i++) await round(sample.base, windows.base);
    console.log(
      `baseline: cached p95 ${p95(sample.base.cached)} ms, reads p95 ${p95(sample.base.reads)} ms`,
    );
    const stored = await left();
    if (stored !== OLD_RUNS)
      throw new Error(
        `${stored} old runs stored, not ${OLD_RUNS}:\n${server.output().slice(-2000)}`,
      );

    // Retention for the old runs' crew: the server reloads the file, its sweeper starts.
    const before = await left();
    fs.writeFileSync(path.join(crews, "old-runs", "crew.yaml"), crewYaml("retention_days: 30\n"));
    const started = Date.now();
    while (!/Crews reloaded/.test(server.output())) await sleep(50);
    let remaining = before;
    let rounds = 0;
    while (remaining > 0 && Date.now() - started < MAX_DURING_S * 1000) {
      await round(sample.during, windows.during);
      rounds++;
      remaining = await left();
      console.log(
        `  ${((Date.now() - started) / 1000).toFixed(0)} s: ${remaining.toLocaleString("en")} old runs left; cached p95 ${p95(sample.during.cached)} ms, reads p95 ${p95(sample.during.reads)} ms`,
      );
    }
    const seconds = (Date.now() - started) / 1000;
    const sweeperLines = server.output().match(/^.*\[retention.*$/gm) ?? [];
    console.log(
      `the sweeper said:\n${sweeperLines.slice(0, 5).join("\n")}${sweeperLines.length > 5 ? `\n… (${sweeperLines.length} lines)` : ""}`,
    );
    const deleted = before - remaining;
    const done = remaining === 0;
    const rate = Math.round(deleted / seconds);
    const events = Number(
      (
        await q(
          "SELECT count(*)::int AS n FROM execution_events e WHERE NOT EXISTS (SELECT 1 FROM executions x WHERE x.id = e.execution_id)",
        )
      )[0].n,
    );
    if (events) throw new Error(`${events} events left without their run`);
    const pct = (times, p) =>
      percentile(
        [...times].sort((x, y) => x - y),
        p,
      );
    const line = (load, label) => {
      const b = sample.base[load];
      const d = sample.during[load];
      const rps = (times, n) => Math.round(times.length / (n * WINDOW));
      const ratio = pct(d, 95) / pct(b, 95);
      const med = (xs) =>
        Number(
          percentile(
            [...xs].sort((x, y) => x - y),
            50,
          ).toFixed(1),
        );
      const perWindow = `window p95s: baseline median ${med(windows.base[load])}, during median ${med(windows.during[load])}, worst ${Math.max(...windows.during[load]).toFixed(1)}`;
      return `| ${stamp()} | ${machine()} | Crewdeck GET /status ${label}, PostgreSQL, one process (web + worker): without retention work → while the sweeper deletes ${deleted.toLocaleString("en")} of ${before.toLocaleString("en")} old runs (${EVENTS_PER_RUN} events each, batches of 500) | ${CONNECTIONS} × ${WINDOW} | ${rps(b, BASE_ROUNDS)} → ${rps(d, rounds)} | ${pct(b, 50)} → ${pct(d, 50)} | p95 ${pct(b, 95)} → ${pct(d, 95)}; p99 ${pct(b, 99)} → ${pct(d, 99)} | p95 ${ratio <= 1.2 ? "within" : "OVER"} the +20 % goal (${ratio >= 1 ? "+" : ""}${((ratio - 1) * 100).toFixed(0)} %); ${done ? `all deleted in ${seconds.toFixed(0)} s` : `stopped after ${seconds.toFixed(0)} s`}, ≈${rate.toLocaleString("en")} runs/s; ${BASE_ROUNDS} + ${rounds} rounds; ${perWindow} |`;
    };
    const lines = [
      line("cached", "one id (cached)"),
      line(
        "reads",
        `a random one of ${RECENT_RUNS.toLocaleString("en")} recent ids each request (mostly cache misses)`,
      ),
    ];
    console.log(lines.join("\n"));
    appendResults(lines);
  } finally {
    await client.end().catch(() => {});
    await stop(server);
    await db.drop();
  }
}

run(main);
