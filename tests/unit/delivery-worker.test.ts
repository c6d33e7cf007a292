import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/types";
import { embeddedDbForFile } from "../support/embedded-db";
import { queryAs } from "../support/rows";

// The outbox worker on the real embedded database with a real receiver: a backlog of many
// executions' ordered step deliveries to a few endpoints, claimed and recorded in batches.
const ENV = { WEBHOOK_ALLOWED_NETWORKS: "127.0.0.2/32" };
let db: Db;

const embedded = embeddedDbForFile("delivery", ENV);
beforeAll(() => {
  db = embedded.db;
});

/** Records what arrives (one in five first attempts answered 503) and on which connection. */
async function startReceiver() {
  const got: { id: string; path: string; execution: string; seq: number; connection: number }[] =
    [];
  const tries = new Map<string, number>();
  let connections = 0;
  const numbers = new WeakMap<object, number>();
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const id = String(req.headers["webhook-id"]);
      const n = (tries.get(id) ?? 0) + 1;
      tries.set(id, n);
      // Some first attempts fail, so retries interleave with first attempts in the batches.
      if (n === 1 && Number.parseInt(id.slice(0, 2), 16) % 5 === 0) {
        res.writeHead(503).end();
        return;
      }
      const body = JSON.parse(raw);
      got.push({
        id,
        path: req.url ?? "",
        execution: body.execution_id,
        seq: body.sequence,
        connection: numbers.get(req.socket) ?? 0,
      });
      res.writeHead(204).end();
    });
  });
  server.on("connection", (socket) => numbers.set(socket, ++connections));
  await new Promise<void>((r) => server.listen(0, "127.0.0.2", r));
  const port = (server.address() as AddressInfo).port;
  return {
    got,
    url: (p: string) => `http://127.0.0.2:${port}${p}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/**
 * Runs the outbox worker (retries due at once) until `open` — a count of the deliveries still to
 * settle — reads 0, then stops it.
 */
async function deliverUntilSettled(open: { sql: string; params?: unknown[] }, concurrency = 8) {
  const { startDeliveryWorker } = await import("@/lib/notify/delivery-worker");
  const worker = startDeliveryWorker({
    db,
    secret: "whsec_dGVzdC13ZWJob29rLXNlY3JldC0wMTIzNDU2Nzg5",
    schedule: [0, 0, 0],
    timeoutMs: 5_000,
    concurrency,
    pollMs: 20,
    log: () => {},
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { rows } = await queryAs<{ n: number }>(db, open.sql, open.params);
    if (rows[0]?.n === 0) break;
    if (Date.now() > deadline) throw new Error(`${rows[0]?.n} deliveries not settled`);
    await new Promise((r) => setTimeout(r, 50));
  }
  await worker.stop();
}

describe("delivery worker", () => {
  it("delivers a backlog in batches: each id once, every execution's steps in order per endpoint, every attempt logged", async () => {
    const rx = await startReceiver();
    const urls = [rx.url("/a"), rx.url("/b")];
    const STEPS = 5;
    const executions = Array.from({ length: 12 }, () => crypto.randomUUID());
    for (const e of executions)
      await db.query(
        `INSERT INTO executions (id, crew, status, inputs, crew_snapshot, tasks)
         VALUES ($1, 'x', 'completed', '{}', '{}', '[]')`,
        [e],
      );
    // Interleaved as concurrent runs write them: step s of every execution, then step s + 1.
    const ids: string[] = [];
    for (let seq = 1; seq <= STEPS; seq++)
      for (const e of executions)
        for (const url of urls) {
          const id = crypto.randomUUID();
          ids.push(id);
          await db.query(
            `INSERT INTO webhook_deliveries (id, execution_id, event_seq, kind, url, payload)
             VALUES ($1, $2, $3, 'step', $4, $5)`,
            [id, e, seq, url, JSON.stringify({ execution_id: e, sequence: seq })],
          );
        }

    await deliverUntilSettled({
      sql: "SELECT count(*)::int AS n FROM webhook_deliveries WHERE status <> 'succeeded'",
    });
    rx.close();

    expect(rx.got.map((g) => g.id).sort()).toEqual([...ids].sort()); // each once
    for (const e of executions)
      for (const p of ["/a", "/b"])
        expect(rx.got.filter((g) => g.execution === e && g.path === p).map((g) => g.seq)).toEqual([
          1, 2, 3, 4, 5,
        ]);
    // Connections were reused: far fewer than deliveries.
    expect(new Set(rx.got.map((g) => g.connection)).size).toBeLessThan(ids.length / 4);
    const { rows: attempts } = await queryAs<{ ok: number; failed: number; deliveries: number }>(
      db,
      `SELECT count(*) FILTER (WHERE status_code = 204)::int AS ok,
              count(*) FILTER (WHERE status_code = 503)::int AS failed,
              count(DISTINCT delivery_id)::int AS deliveries FROM webhook_attempts`,
    );
    const retried = ids.filter((id) => Number.parseInt(id.slice(0, 2), 16) % 5 === 0).length;
    expect(attempts[0]).toEqual({ ok: ids.length, failed: retried, deliveries: ids.length });
    const { rows: states } = await queryAs<{ attempts: number; n: number }>(
      db,
      `SELECT attempts, count(*)::int AS n FROM webhook_deliveries
        WHERE lease_owner IS NULL AND finished_at IS NOT NULL GROUP BY attempts ORDER BY attempts`,
    );
    expect(states).toEqual(
      [
        { attempts: 1, n: ids.length - retried },
        { attempts: 2, n: retried },
      ].filter((s) => s.n > 0),
    );
  }, 90_000);

  it("never sends to an endpoint that answered 410 Gone, even a delivery queued as it did", async () => {
    // The state a race on PostgreSQL leaves: the run queued these while the 410 that disabled
    // their endpoint was being recorded, so neither the enqueue nor the 410's sweep saw the other.
    const rx = await startReceiver();
    const gone = rx.url("/gone");
    const live = rx.url("/live");
    await db.query(
      "INSERT INTO webhook_endpoints (url, disabled_reason) VALUES ($1, 'answered 410 Gone')",
      [gone],
    );
    const execution = crypto.randomUUID();
    await db.query(
      `INSERT INTO executions (id, crew, status, inputs, crew_snapshot, tasks)
       VALUES ($1, 'x', 'completed', '{}', '{}', '[]')`,
      [execution],
    );
    const ids = { step: crypto.randomUUID(), crew: crypto.randomUUID(), live: crypto.randomUUID() };
    for (const [id, kind, url, seq] of [
      [ids.step, "step", gone, 1],
      [ids.crew, "crew", gone, 2],
      [ids.live, "step", live, 1],
    ] as const)
      await db.query(
        `INSERT INTO webhook_deliveries (id, execution_id, event_seq, kind, url, payload)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [id, execution, seq, kind, url, JSON.stringify({ execution_id: execution, sequence: seq })],
      );

    const mine = Object.values(ids);
    await deliverUntilSettled(
      {
        sql: "SELECT count(*)::int AS n FROM webhook_deliveries WHERE id = ANY($1) AND finished_at IS NULL",
        params: [mine],
      },
      4,
    );
    rx.close();

    expect(rx.got.map((g) => g.path)).toEqual(["/live"]);
    const { rows } = await queryAs<{
      id: string;
      status: string;
      attempts: number;
      last_error: string | null;
    }>(db, "SELECT id, status, attempts, last_error FROM webhook_deliveries WHERE id = ANY($1)", [
      mine,
    ]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    // Failed, and no attempt counted or logged: nothing was sent.
    for (const id of [ids.step, ids.crew])
      expect(byId.get(id)).toMatchObject({
        status: "failed",
        attempts: 0,
        last_error: "endpoint disabled: it answered 410 Gone",
      });
    expect(byId.get(ids.live)?.status).toBe("succeeded");
    const { rows: logged } = await queryAs<{ n: number }>(
      db,
      "SELECT count(*)::int AS n FROM webhook_attempts WHERE delivery_id = ANY($1)",
      [[ids.step, ids.crew]],
    );
    expect(logged[0]?.n).toBe(0);
  }, 90_000);

  it("sends an execution's step events in sequence order, whatever order their rows were numbered in", async () => {
    // One INSERT of several deliveries numbers them (position) in its plan's order, which a join
    // may reverse: here the rows are numbered backwards outright.
    const rx = await startReceiver();
    const url = rx.url("/ordered");
    const execution = crypto.randomUUID();
    await db.query(
      `INSERT INTO executions (id, crew, status, inputs, crew_snapshot, tasks)
       VALUES ($1, 'x', 'completed', '{}', '{}', '[]')`,
      [execution],
    );
    const seqs = [5, 4, 3, 2, 1];
    for (const seq of seqs)
      await db.query(
        `INSERT INTO webhook_deliveries (id, execution_id, event_seq, kind, url, payload)
         VALUES ($1, $2, $3, 'step', $4, $5)`,
        [
          crypto.randomUUID(),
          execution,
          seq,
          url,
          JSON.stringify({ execution_id: execution, sequence: seq }),
        ],
      );

    await deliverUntilSettled({
      sql: "SELECT count(*)::int AS n FROM webhook_deliveries WHERE execution_id = $1 AND status <> 'succeeded'",
      params: [execution],
    });
    rx.close();
    expect(rx.got.filter((g) => g.path === "/ordered").map((g) => g.seq)).toEqual([1, 2, 3, 4, 5]);
  }, 90_000);
});
