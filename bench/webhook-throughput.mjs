// Webhook delivery throughput, outbox only: the outbox is pre-filled with DELIVERIES rows (EXECUTIONS
// finished executions × a few endpoints × STEPS ordered step deliveries + one crew delivery) while
// no server runs, all due at one instant (the release) a few seconds after Crewdeck has started.
// Measured: deliveries per second from the release to the last one received by loopback
// receivers on 127.0.0.2. Checked: every id arrives, no id arrives twice (the receivers always
// answer 204), and each execution's step deliveries reach each URL in sequence order.
// Embedded database always; PostgreSQL too when TEST_PG_URL is set (bench/run.sh).
// Bounded (RELEASE_TIMEOUT_MS), stops everything it started. Appends to RESULTS.md.
import crypto from "node:crypto";
import http from "node:http";
import path from "node:path";
import pg from "pg";
import {
  appendResults,
  cleanup,
  createDatabase,
  machine,
  run,
  sleep,
  stamp,
  startCrewdeck,
  stop,
  tempDir,
} from "./common.mjs";

const EXECUTIONS = Number(process.env.EXECUTIONS ?? 400);
const STEPS = Number(process.env.STEPS ?? 6);
const PATHS = ["/a", "/b"]; // on each of two receivers: four endpoints
const LEAD_MS = Number(process.env.LEAD_MS ?? 25_000); // time for `next start` before the release
// DATABASES=postgres: only that one (default: embedded, and PostgreSQL when TEST_PG_URL is set).
const DATABASES = (process.env.DATABASES ?? "embedded,postgres").split(",");
const RELEASE_TIMEOUT_MS = Number(process.env.RELEASE_TIMEOUT_MS ?? 120_000);

/** Two receivers on 127.0.0.2 that record what arrives and count the connections opened. */
async function startReceivers() {
  const seen = new Map(); // webhook-id → times received
  const order = []; // { chain, seq } in arrival order (step deliveries)
  let connections = 0;
  let last = 0;
  const servers = [];
  for (let i = 0; i < 2; i++) {
    const server = http.createServer((req, res) => {
      let raw = "";
      req.on("data", (c) => (raw += c));
      req.on("end", () => {
        const id = req.headers["webhook-id"];
        seen.set(id, (seen.get(id) ?? 0) + 1);
        const body = JSON.parse(raw);
        if (body.type === "step")
          order.push({ chain: `${body.execution_id} ${req.url} ${i}`, seq: body.sequence });
        last = Date.now();
        res.writeHead(204).end();
      });
    });
    server.on("connection", () => connections++);
    await new Promise((r) => server.listen(0, "127.0.0.2", r));
    servers.push(server);
  }
  const urls = servers.flatMap((s) => PATHS.map((p) => `http://127.0.0.2:${s.address().port}${p}`));
  return {
    urls,
    seen,
    order,
    connections: () => connections,
    last: () => last,
    reset() {
      seen.clear();
      order.length = 0;
      connections = 0;
      last = 0;
    },
    close: () => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))),
  };
}

/**
 * The rows to insert: per execution and URL, STEPS step deliveries then a crew one; their outbox
 * positions interleave executions at random (as concurrent runs write them), each chain in order.
 */
function outboxRows(urls) {
  const executions = Array.from({ length: EXECUTIONS }, () => crypto.randomUUID());
  const chains = executions.flatMap((e) => urls.map((url) => ({ e, url, next: 1 })));
  const rows = [];
  const open = [...chains];
  while (open.length) {
    const i = Math.floor(Math.random() * open.length);
    const c = open[i];
    const kind = c.next <= STEPS ? "step" : "crew";
    rows.push({
      id: crypto.randomUUID(),
      execution_id: c.e,
      event_seq: c.next,
      kind,
      url: c.url,
      payload: JSON.stringify({
        type: kind,
        execution_id: c.e,
        sequence: c.next,
        timestamp: new Date().toISOString(),
        data: { output: "x".repeat(200) },
      }),
    });
    if (++c.next > STEPS + 1) open.splice(i, 1);
  }
  return { executions, rows };
}

/** Inserts the executions and deliveries, all due LEAD_MS from now; returns the release time. */
async function prefill(query, { executions, rows }) {
  for (let i = 0; i < executions.length; i += 500) {
    const ids = executions.slice(i, i + 500);
    await query(
      `INSERT INTO executions (id, crew, status, inputs, crew_snapshot, tasks, finished_at)
       SELECT id, 'research-brief', 'completed', '{}', '{}', '[]', now() FROM unnest($1::uuid[]) AS id`,
      [ids],
    );
  }
  for (let i = 0; i < rows.length; i += 1000) {
    const chunk = rows.slice(i, i + 1000);
    const col = (k) => chunk.map((r) => r[k]);
    await query(
      `INSERT INTO webhook_deliveries (id, execution_id, event_seq, kind, url, payload, next_attempt_at)
       SELECT id, e, s, k, u, p::jsonb, 'infinity'
         FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::text[], $5::text[], $6::text[])
           WITH ORDINALITY AS v(id, e, s, k, u, p, n) ORDER BY n`,
      [col("id"), col("execution_id"), col("event_seq"), col("kind"), col("url"), col("payload")],
    );
  }
  const { rows: at } = await query(
    `UPDATE webhook_deliveries SET next_attempt_at = now() + make_interval(secs => $1)
      RETURNING (extract(epoch FROM next_attempt_at) * 1000)::float8 AS release`,
    [LEAD_MS / 1000],
  );
  return Number(at[0].release);
}

async function measure(label, receivers, { env, openDb }) {
  receivers.reset();
  // A first start creates the schema; then the outbox is filled while no server runs.
  const first = await startCrewdeck(env);
  await stop(first);
  const data = outboxRows(receivers.urls);
  const db = await openDb();
  const release = await prefill(db.query, data);
  await db.close();
  const server = await startCrewdeck({ ...env, DATA_DIR: first.dataDir });
  if (server.readyAt > release)
    throw new Error(`${label}: not ready before the release: raise LEAD_MS`);
  const ids = new Set(data.rows.map((r) => r.id));
  while (receivers.seen.size < ids.size) {
    if (Date.now() - release > RELEASE_TIMEOUT_MS)
      throw new Error(`${label}: ${receivers.seen.size} of ${ids.size} received in time`);
    await sleep(50);
  }
  await sleep(500); // a duplicate would arrive now
  await stop(server);
  const seconds = (receivers.last() - release) / 1000;
  const perSecond = Math.round(ids.size / seconds);

  const missing = [...ids].filter((id) => !receivers.seen.has(id)).length;
  const twice = [...receivers.seen.values()].filter((n) => n > 1).length;
  const lastSeq = new Map();
  let outOfOrder = 0;
  for (const { chain, seq } of receivers.order) {
    if ((lastSeq.get(chain) ?? 0) !== seq - 1) outOfOrder++;
    lastSeq.set(chain, seq);
  }
  console.log(
    `${label}: ${ids.size} deliveries in ${seconds.toFixed(2)} s: ${perSecond}/s over ${receivers.connections()} connections; missing ${missing}, twice ${twice}, out of order ${outOfOrder}`,
  );
  if (missing || twice || outOfOrder) throw new Error(`${label}: a guarantee was broken`);
  return { label, deliveries: ids.size, perSecond, connections: receivers.connections() };
}

run(async () => {
  const receivers = await startReceivers();
  const env = {
    WEBHOOK_ALLOWED_NETWORKS: "127.0.0.2/32",
    DATA_DIR: tempDir("crewdeck-bench-whtp-"),
  };
  const results = [];
  if (DATABASES.includes("embedded"))
    results.push(
      await measure("embedded", receivers, {
        env,
        openDb: async () => {
          const { PGlite } = await import("@electric-sql/pglite");
          const pglite = await PGlite.create(path.join(env.DATA_DIR, "pgdata"));
          return { query: (sql, params) => pglite.query(sql, params), close: () => pglite.close() };
        },
      }),
    );
  if (process.env.TEST_PG_URL && DATABASES.includes("postgres")) {
    const database = await createDatabase("crewdeck_bench_whtp");
    try {
      results.push(
        await measure("PostgreSQL", receivers, {
          env: { ...env, DATABASE_URL: database.url, DATA_DIR: tempDir("crewdeck-bench-whtp-pg-") },
          openDb: async () => {
            const client = new pg.Client({ connectionString: database.url });
            await client.connect();
            return { query: (sql, params) => client.query(sql, params), close: () => client.end() };
          },
        }),
      );
    } finally {
      await cleanup();
      await database.drop();
    }
  }
  await receivers.close();
  appendResults(
    results.map(
      (r) =>
        `| ${stamp()} | ${machine()} | webhook throughput (pre-filled outbox, ${r.deliveries} deliveries, ${EXECUTIONS} runs × 4 endpoints, ${r.label}) | – | ${r.perSecond} deliveries/s | ${r.connections} connections | – | in order, each id once |`,
    ),
  );
});
