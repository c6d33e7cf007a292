import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { queryable } from "@/lib/db/queryable";
import type { Db, Queryable } from "@/lib/db/types";
import type { ExecutionStatus } from "@/lib/run-model/states";
import type { ExecutionRow } from "@/lib/run-model/types";
import { embeddedDbForFile } from "../support/embedded-db";
import { queryAs } from "../support/rows";

// The worker's writer against the real embedded database: changes recorded and written in one
// statement, and — when anyone else changed the run in between — applied again on the row as it
// now is, or refused when the lease is gone. The interleavings are made by hand, not by timing.
const FIXTURE_CREWS = path.resolve(import.meta.dirname, "../fixtures/crews");
let db: Db;

const embedded = embeddedDbForFile("writer");
beforeAll(() => {
  db = embedded.db;
});

/** A queued run of the three-step fixture, claimed by `owner` as the worker claims. */
async function claimed(owner: string): Promise<ExecutionRow> {
  const { loadCrews } = await import("@/lib/crew/load-crews");
  const { createExecution } = await import("@/lib/runs/create-execution");
  const crew = loadCrews(FIXTURE_CREWS).crews.get("three-step");
  if (!crew) throw new Error("fixture crew three-step missing");
  const id = await createExecution({
    db,
    crew,
    principal: { kind: "org", tokenId: null },
    request: { inputs: { job: "write" } },
  });
  const { rows } = await queryAs<ExecutionRow>(
    db,
    "UPDATE executions SET lease_owner = $2, lease_expires_at = now() + interval '1 hour' WHERE id = $1 RETURNING *",
    [id, owner],
  );
  return rows[0] as ExecutionRow;
}

/** A run claimed by `owner`, and that worker's writer for it, writing through `on`. */
async function claimedWriter(owner: string, on: Db = db) {
  const { executionWriter } = await import("@/lib/runs/execution-writer");
  const row = await claimed(owner);
  return { row, writer: executionWriter({ db: on, row, leaseOwner: owner }) };
}

/** The database, counting statements (a transaction counts as its statements). */
function counting() {
  const seen: string[] = [];
  const wrap = (q: Queryable): Queryable =>
    queryable((sql, params) => {
      seen.push(sql.trim().split(/\s+/).slice(0, 4).join(" "));
      return q.query(sql, params);
    });
  const counted: Db = { ...db, ...wrap(db), tx: (fn) => db.tx((q) => fn(wrap(q))) };
  return { db: counted, seen };
}

async function stored(id: string) {
  const { rows } = await queryAs<ExecutionRow>(db, "SELECT * FROM executions WHERE id = $1", [id]);
  const events = await queryAs<{ seq: number; type: string }>(
    db,
    "SELECT seq, type FROM execution_events WHERE execution_id = $1 ORDER BY seq",
    [id],
  );
  return { row: rows[0] as ExecutionRow, events: events.rows };
}

it("writes what was recorded and the change after it in one statement, as mutateExecution would", async () => {
  const { db: counted, seen } = counting();
  const { row, writer } = await claimedWriter("w1", counted);
  const started = writer.record(() => ({
    patch: { status: "running", current_task: "research" },
    events: [{ type: "execution_started" }],
  }));
  expect(started.status).toBe("running"); // at once, before anything is written
  writer.record((r) => ({
    patch: { tasks: r.tasks.map((t, i) => (i === 0 ? { ...t, status: "running" as const } : t)) },
    events: [{ type: "task_started", task_id: "research", attempt: 1 }],
  }));
  const after = await writer.change(() => ({
    patch: { last_step: { type: "thought", text: "x", at: new Date(0) as unknown as string } },
    events: [{ type: "thought", task_id: "research", attempt: 1, data: { text: "x" } }],
  }));
  expect(seen).toEqual(["WITH w0_updated AS (UPDATE"]);
  const db1 = await stored(row.id);
  expect(db1.events.map((e) => [e.seq, e.type])).toEqual([
    [1, "execution_queued"],
    [2, "execution_started"],
    [3, "task_started"],
    [4, "thought"],
  ]);
  // What the writer goes on from is what is stored (JSON as the database gives it back).
  for (const column of ["status", "current_task", "tasks", "last_step", "last_seq", "version"]) {
    expect(after[column as keyof ExecutionRow], column).toEqual(
      db1.row[column as keyof ExecutionRow],
    );
  }
  expect(db1.row.version).toBe(row.version + 3);
});

it("a change made by someone else in between is kept: the worker's is applied again on top of it", async () => {
  const { mutateExecution } = await import("@/lib/runs/execution-store");
  const { db: counted, seen } = counting();
  const { row, writer } = await claimedWriter("w2", counted);
  await writer.change(() => ({
    patch: { status: "running" },
    events: [{ type: "execution_started" }],
  }));
  // Someone else (a reviewer of a task running beside others, say) changes the run.
  await db.tx((q) =>
    mutateExecution(q, { id: row.id }, () => ({
      patch: { current_task: "by-someone-else" },
      events: [{ type: "review_reassigned", task_id: "research", attempt: 1 }],
    })),
  );
  seen.length = 0;
  const after = await writer.change((r) => ({
    patch: { result: `seen ${r.current_task}` },
    events: [{ type: "thought", task_id: "research", attempt: 1 }],
  }));
  // Tried at once, found the row changed, then locked it and decided again on what it now is.
  expect(seen[0]).toBe("WITH w0_updated AS (UPDATE");
  expect(seen).toContain("SELECT * FROM executions");
  expect(after.result).toBe("seen by-someone-else");
  const db2 = await stored(row.id);
  expect(db2.row.result).toBe("seen by-someone-else");
  expect(db2.row.current_task).toBe("by-someone-else");
  expect(db2.events.map((e) => e.seq)).toEqual([1, 2, 3, 4]); // no gap, no duplicate
  expect(db2.events.at(-1)?.type).toBe("thought");
  // And the next change goes the one-statement way again, from the row as it is now.
  seen.length = 0;
  await writer.change(() => ({ events: [{ type: "answer", task_id: "research", attempt: 1 }] }));
  expect(seen).toEqual(["WITH w0_updated AS (UPDATE"]);
  expect((await stored(row.id)).events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
});

it("several runs' changes that wait together go in one statement, each as if alone", async () => {
  const { executionWriter } = await import("@/lib/runs/execution-writer");
  const { mutateExecution } = await import("@/lib/runs/execution-store");
  const rows = await Promise.all(["g1", "g2", "g3"].map((owner) => claimed(owner)));
  // The third run was changed by someone else: its part of the statement writes nothing, and its
  // change is applied again on the locked row, while the others' stand.
  await db.tx((q) =>
    mutateExecution(q, { id: rows[2]?.id as string }, () => ({ patch: { current_task: "moved" } })),
  );
  const { db: counted, seen } = counting();
  const writers = rows.map((row, i) =>
    executionWriter({ db: counted, row, leaseOwner: `g${i + 1}` }),
  );
  const after = await Promise.all(
    writers.map((w) =>
      w.change((r) => ({
        patch: { status: "running", result: `from ${r.current_task}` },
        events: [{ type: "execution_started" }],
      })),
    ),
  );
  // All three in one statement (one turn), then the third's locked write.
  expect(seen[0]).toBe("WITH w0_updated AS (UPDATE");
  expect(seen.filter((q) => q.startsWith("WITH w0_updated"))).toHaveLength(1); // not one per run
  expect(seen).toContain("SELECT * FROM executions");
  for (const [i, row] of rows.entries()) {
    const now = await stored(row.id);
    expect(now.row.status).toBe("running");
    expect(now.events.map((e) => [e.seq, e.type])).toEqual([
      [1, "execution_queued"],
      [2, "execution_started"],
    ]);
    expect(after[i]?.version).toBe(now.row.version);
    expect(after[i]?.result).toBe(now.row.result);
  }
  expect((await stored(rows[2]?.id as string)).row.result).toBe("from moved");
});

it("once another worker holds the lease, changes are refused and nothing is written", async () => {
  const { LeaseLostError } = await import("@/lib/runs/execution-store");
  const { row, writer } = await claimedWriter("w3");
  await db.query("UPDATE executions SET lease_owner = 'other' WHERE id = $1", [row.id]);
  writer.record(() => ({ events: [{ type: "execution_started" }] }));
  await expect(
    writer.change(() => ({ patch: { status: "running" }, events: [{ type: "thought" }] })),
  ).rejects.toBeInstanceOf(LeaseLostError);
  // The writer stays refused: a later change of this run in this worker fails the same way.
  expect(() => writer.record(() => ({ events: [{ type: "answer" }] }))).toThrow(LeaseLostError);
  await expect(writer.flush()).rejects.toBeInstanceOf(LeaseLostError);
  const db3 = await stored(row.id);
  expect(db3.events.map((e) => e.type)).toEqual(["execution_queued"]);
  expect(db3.row.status).toBe("queued");
});

it("what is only recorded is written by the end of the turn, with the time it happened", async () => {
  const { row, writer } = await claimedWriter("w4");
  const before = Date.now();
  writer.record(() => ({ patch: { status: "running" }, events: [{ type: "execution_started" }] }));
  await writer.flush();
  const { rows } = await queryAs<{ type: string; created_at: Date }>(
    db,
    "SELECT type, created_at FROM execution_events WHERE execution_id = $1 AND seq = 2",
    [row.id],
  );
  expect(rows[0]?.type).toBe("execution_started");
  expect(rows[0]?.created_at.getTime()).toBeGreaterThanOrEqual(before - 1);
});

it("events that must be stored once go the locked way, which drops those already stored", async () => {
  const { db: counted, seen } = counting();
  const { row, writer } = await claimedWriter("w5", counted);
  const keyed = { key: "remote:1", type: "thought", task_id: "research", attempt: 1 };
  await writer.change(() => ({ events: [keyed] }));
  await writer.change(() => ({ events: [keyed, { ...keyed, key: "remote:2" }] }));
  expect(seen).not.toContain("WITH w0_updated AS (UPDATE");
  expect((await stored(row.id)).events.map((e) => e.seq)).toEqual([1, 2, 3]);
});

it("what is only recorded is written without anyone asking, all of one turn together", async () => {
  const { db: counted, seen } = counting();
  const { row, writer } = await claimedWriter("w6", counted);
  writer.record(() => ({ patch: { status: "running" }, events: [{ type: "execution_started" }] }));
  writer.record(() => ({ events: [{ type: "thought", task_id: "research", attempt: 1 }] }));
  writer.record(() => ({ events: [{ type: "answer", task_id: "research", attempt: 1 }] }));
  // No flush, no change: the writer writes by itself once this turn of the event loop ends.
  await expect
    .poll(async () => (await stored(row.id)).events.map((e) => e.type), { timeout: 60_000 })
    .toEqual(["execution_queued", "execution_started", "thought", "answer"]);
  expect(seen).toHaveLength(1);
  expect((await stored(row.id)).row.status).toBe("running");
  const { rows } = await queryAs<{ task_id: string | null; attempt: number | null }>(
    db,
    "SELECT task_id, attempt FROM execution_events WHERE execution_id = $1 AND seq > 1 ORDER BY seq",
    [row.id],
  );
  expect(rows).toEqual([
    { task_id: null, attempt: null },
    { task_id: "research", attempt: 1 },
    { task_id: "research", attempt: 1 },
  ]);
});

it("a batch with one change that must go the locked way goes that way whole", async () => {
  const { row, writer } = await claimedWriter("w7");
  const keyed = (key: string) => ({ key, type: "thought", task_id: "research", attempt: 1 });
  await writer.change(() => ({ events: [keyed("remote:1")] }));
  // A plain change, then one carrying an event already stored: written together.
  writer.record(() => ({ events: [{ type: "answer", task_id: "research", attempt: 1 }] }));
  await writer.change(() => ({ events: [keyed("remote:1"), keyed("remote:2")] }));
  const { rows } = await queryAs<{ seq: number; type: string; source_key: string | null }>(
    db,
    "SELECT seq, type, source_key FROM execution_events WHERE execution_id = $1 ORDER BY seq",
    [row.id],
  );
  expect(rows.map((e) => [e.seq, e.type, e.source_key])).toEqual([
    [1, "execution_queued", null],
    [2, "thought", "remote:1"],
    [3, "answer", null],
    [4, "thought", "remote:2"],
  ]);
});

it("one keyed or ledger event among plain ones sends the change the locked way", async () => {
  const { executionWriter } = await import("@/lib/runs/execution-writer");
  const step = { type: "thought", task_id: "research", attempt: 1 };
  for (const mixed of [
    [step, { ...step, key: "remote:7" }],
    [step, { type: "review_claimed", task_id: "research", attempt: 1 }],
  ]) {
    const row = await claimed("w9");
    const { db: counted, seen } = counting();
    const writer = executionWriter({ db: counted, row, leaseOwner: "w9" });
    await writer.change(() => ({ events: mixed }));
    expect(seen, JSON.stringify(mixed)).not.toContain("WITH w0_updated AS (UPDATE");
    expect((await stored(row.id)).events.map((e) => e.type)).toEqual([
      "execution_queued",
      ...mixed.map((e) => e.type),
    ]);
  }
});

it("a change written at once wakes whoever follows the run", async () => {
  const { executionWriter } = await import("@/lib/runs/execution-writer");
  const { EXECUTION_CHANNEL } = await import("@/lib/runs/execution-cache");
  const row = await claimed("w10");
  const woken: string[] = [];
  await db.listen(EXECUTION_CHANNEL, (id) => woken.push(id));
  const { db: counted, seen } = counting();
  const writer = executionWriter({ db: counted, row, leaseOwner: "w10" });
  await writer.change(() => ({ events: [{ type: "thought", task_id: "research", attempt: 1 }] }));
  expect(seen).toEqual(["WITH w0_updated AS (UPDATE"]);
  await expect.poll(() => woken.includes(row.id), { timeout: 60_000 }).toBe(true);
});

it("a run deleted under the worker ends its writes as a lost lease", async () => {
  const { LeaseLostError } = await import("@/lib/runs/execution-store");
  const { row, writer } = await claimedWriter("w8");
  await db.query("DELETE FROM execution_events WHERE execution_id = $1", [row.id]);
  await db.query("DELETE FROM executions WHERE id = $1", [row.id]);
  await expect(
    writer.change(() => ({
      patch: { status: "running" },
      events: [{ type: "execution_started" }],
    })),
  ).rejects.toBeInstanceOf(LeaseLostError);
});

it("kickoffs of one moment are queued in one statement, each with its first event and wake-up", async () => {
  const { loadCrews } = await import("@/lib/crew/load-crews");
  const { createExecution } = await import("@/lib/runs/create-execution");
  const crew = loadCrews(FIXTURE_CREWS).crews.get("three-step");
  if (!crew) throw new Error("fixture crew three-step missing");
  const woken: string[] = [];
  await db.listen("crewdeck_work", (id) => woken.push(id));
  const { db: counted, seen } = counting();
  const kickoffs = (jobs: string[]) =>
    Promise.all(
      jobs.map((job) =>
        createExecution({
          db: counted,
          crew,
          principal: { kind: "org", tokenId: null },
          request: { inputs: { job } },
        }),
      ),
    );
  // The crew's definition is written once, by the first kickoffs; then each moment's kickoffs
  // are one statement that names it.
  const first = await kickoffs(["a", "b", "c"]);
  expect(seen).toEqual([
    expect.stringMatching(/^INSERT INTO crew_definitions/),
    expect.stringMatching(/^WITH /),
  ]);
  seen.length = 0;
  const ids = [...first, ...(await kickoffs(["d", "e"]))];
  expect(seen).toEqual([expect.stringMatching(/^WITH /)]);
  for (const id of ids) {
    const now = await stored(id);
    expect(now.row.status).toBe("queued");
    expect(now.events.map((e) => [e.seq, e.type])).toEqual([[1, "execution_queued"]]);
  }
  await expect.poll(() => [...woken].sort()).toEqual([...ids].sort());
});

describe("the writer refuses an illegal transition before writing anything", () => {
  it.each([
    { path: [], to: "pending_human_input", what: "pausing a run that never started" },
    { path: [], to: "completed", what: "completing a run that never started" },
    { path: ["running", "completed"], to: "running", what: "starting a finished run again" },
    { path: ["running", "error"], to: "completed", what: "completing a failed run" },
    { path: ["running", "cancelled"], to: "running", what: "running a stopped run" },
  ] as { path: ExecutionStatus[]; to: ExecutionStatus; what: string }[])(
    "$what",
    async ({ path: legal, to }) => {
      const { executionWriter } = await import("@/lib/runs/execution-writer");
      const { IllegalTransitionError } = await import("@/lib/run-model/states");
      const row = await claimed(`illegal-${legal.join("-")}-${to}`);
      const writer = executionWriter({ db, row, leaseOwner: row.lease_owner as string });
      for (const status of legal)
        await writer.change(() => ({ patch: { status }, events: [{ type: `test_${status}` }] }));
      const from = legal.at(-1) ?? "queued";
      const before = await stored(row.id);
      expect(before.row.status).toBe(from);

      const illegal = () => ({
        patch: { status: to, result: "should not be written" },
        events: [{ type: "thought", task_id: "research", attempt: 1 }],
      });
      // Recorded (answered at once) and changed (written now): both refused, nothing stored.
      expect(() => writer.record(illegal)).toThrow(IllegalTransitionError);
      await expect(writer.change(illegal)).rejects.toThrow(
        `execution cannot go from ${from} to ${to}`,
      );
      await writer.flush();
      expect(await stored(row.id)).toEqual(before);
    },
  );
});
