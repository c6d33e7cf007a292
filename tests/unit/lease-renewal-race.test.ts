import path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { queryable } from "@/lib/db/queryable";
import type { Db } from "@/lib/db/types";
import { embeddedDbForFile } from "../support/embedded-db";
import { queryAs } from "../support/rows";

// A run claimed while a lease renewal is in flight is not in that renewal's answer; its own
// worker must not take it for lost (it would abort it mid-task, and the run would wait out its
// lease before anyone tried again). The interleaving is forced, not hoped for: the renewal's
// UPDATE runs against the real embedded database, and its answer is held back until the worker
// has claimed another run. No short lease, no timing window.
// A model delay, however short, is where the offline model notices an abort.
const ENV = { OFFLINE_MODEL_DELAY_MS: "1", DEFAULT_LLM: "offline", MODEL_MAX_RETRIES: "0" };
const FIXTURE_CREWS = path.resolve(import.meta.dirname, "../fixtures/crews");
let db: Db;

const embedded = embeddedDbForFile("lease-race", ENV);
beforeAll(() => {
  db = embedded.db;
});

// A state change of a run: the worker's one-statement write (lib/runs/execution-writer.ts), or a
// transaction (the locked way, taken when the row changed under the worker).
const isStateChange = (sql: string) => /^\s*WITH w0_updated AS \(UPDATE executions/.test(sql);

function deferred<T = void>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

it("a run claimed while a renewal is in flight is not aborted as lost by its own worker", async () => {
  const { loadCrews } = await import("@/lib/crew/load-crews");
  const { createExecution } = await import("@/lib/runs/create-execution");
  const { startWorker } = await import("@/lib/engine/worker");
  const crew = loadCrews(FIXTURE_CREWS).crews.get("three-step");
  if (!crew) throw new Error("fixture crew three-step missing");
  const kickoff = (job: string) =>
    createExecution({
      db,
      crew,
      principal: { kind: "org", tokenId: null },
      request: { inputs: { job } },
    });

  const first = await kickoff("first");
  let second: string | undefined;
  const changesMayProceed = deferred();
  const secondClaimed = deferred();
  let renewals = 0;

  // The real database, with two statements of the worker's intercepted.
  const forced: Db = {
    ...db,
    ...queryable(async (sql, params) => {
      if (/^\s*UPDATE executions SET lease_expires_at/.test(sql) && renewals++ === 0) {
        // The first renewal: its UPDATE runs now, while only `first` is claimed…
        const answer = await db.query(sql, params);
        // …and its answer arrives only after the worker has claimed and launched `second`.
        second = await kickoff("second");
        await secondClaimed.promise;
        await new Promise((r) => setImmediate(r)); // launch() runs right after claim() returns
        // Let the state changes go on once the worker has read this answer (it does so as soon
        // as the query resolves, before any timer fires).
        setImmediate(() => changesMayProceed.resolve());
        return answer;
      }
      if (isStateChange(sql)) await changesMayProceed.promise;
      const res = await db.query(sql, params);
      if (/^\s*UPDATE executions SET lease_owner = \$1/.test(sql) && second) {
        if (res.rows.some((r) => r.id === second)) secondClaimed.resolve();
      }
      return res;
    }),
    async tx(fn) {
      // Holding every state change keeps both runs active (claimed, not finished) until the
      // renewal has answered.
      await changesMayProceed.promise;
      return db.tx(fn);
    },
  };

  const log: string[] = [];
  const worker = startWorker({
    db: forced,
    concurrency: 2,
    leaseMs: 3_000, // renewed every second; nothing below depends on it
    pollMs: 20,
    log: (m) => log.push(m),
  });
  try {
    await changesMayProceed.promise;
    // Both runs are in the worker now; wait for it to have nothing left running.
    while (worker.activeCount() > 0) await new Promise((r) => setTimeout(r, 20));
    const { rows } = await queryAs<{ id: string; status: string; lease_owner: string | null }>(
      db,
      "SELECT id, status, lease_owner FROM executions ORDER BY created_at",
    );
    expect(rows).toEqual([
      { id: first, status: "completed", lease_owner: null },
      { id: second, status: "completed", lease_owner: null },
    ]);
    expect(log).toEqual([]);
  } finally {
    await worker.stop();
  }
});

it("a worker whose renewals came late does not claim its own running run a second time", async () => {
  const { loadCrews } = await import("@/lib/crew/load-crews");
  const { createExecution } = await import("@/lib/runs/create-execution");
  const { startWorker } = await import("@/lib/engine/worker");
  const crew = loadCrews(FIXTURE_CREWS).crews.get("three-step");
  if (!crew) throw new Error("fixture crew three-step missing");
  const run = await createExecution({
    db,
    crew,
    principal: { kind: "org", tokenId: null },
    request: { inputs: { job: "late renewals" } },
  });
  const changesMayProceed = deferred();
  let claimsOfRun = 0;
  let claimsAfterExpiry = 0;
  let expired = false;
  const claimedOnce = deferred();
  const twoClaimsAfterExpiry = deferred();
  const forced: Db = {
    ...db,
    ...queryable(async (sql, params) => {
      if (isStateChange(sql)) await changesMayProceed.promise; // the run stays active, mid-way
      const res = await db.query(sql, params);
      if (/^\s*UPDATE executions SET lease_owner = \$1/.test(sql)) {
        if (res.rows.some((r) => r.id === run)) claimsOfRun++;
        if (claimsOfRun === 1) claimedOnce.resolve();
        if (expired && ++claimsAfterExpiry === 2) twoClaimsAfterExpiry.resolve();
      }
      return res;
    }),
    async tx(fn) {
      await changesMayProceed.promise; // the run stays active, mid-way, meanwhile
      return db.tx(fn);
    },
  };
  const worker = startWorker({
    db: forced,
    concurrency: 2,
    leaseMs: 60_000,
    pollMs: 20,
    log: () => {},
  });
  try {
    await claimedOnce.promise;
    // The lease runs out as if the renewals had been late; the worker still runs the run.
    await db.query(
      "UPDATE executions SET lease_expires_at = now() - interval '1 second' WHERE id = $1",
      [run],
    );
    expired = true;
    await twoClaimsAfterExpiry.promise; // a claim started after the expiry has completed
    expect(claimsOfRun).toBe(1);
    expect(worker.activeCount()).toBe(1);
  } finally {
    changesMayProceed.resolve();
    await worker.stop(30_000);
  }
});
