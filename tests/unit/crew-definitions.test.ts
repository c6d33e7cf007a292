import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CrewDef } from "@/lib/crew/schema";
import { queryable } from "@/lib/db/queryable";
import type { Db, Queryable } from "@/lib/db/types";
import type { ExecutionRow } from "@/lib/run-model/types";
import { queryAs } from "../support/rows";

// Runs name their crew's stored definition instead of keeping a copy (migration 21): written once,
// read once per process, shared frozen; runs that keep their own copy read as before.
const FIXTURE_CREWS = path.resolve("tests/fixtures/crews");
let db: Db;
let crew: CrewDef;
let createExecution: typeof import("@/lib/runs/create-execution").createExecution;
let defs: typeof import("@/lib/runs/crew-definitions");
let store: typeof import("@/lib/runs/execution-store");
let getExecutionOrThrow: typeof import("@/lib/runs/get-execution").getExecutionOrThrow;

const org = { kind: "org", tokenId: null } as const;

/** A handle on the same database that records its statements' first words (a second process). */
function handle(fail?: (sql: string) => boolean) {
  const seen: string[] = [];
  const wrap = (q: Queryable): Queryable =>
    queryable((sql, params) => {
      seen.push(sql.trim().split(/\s+/).slice(0, 3).join(" "));
      if (fail?.(sql)) return Promise.reject(new Error("refused by the test"));
      return q.query(sql, params);
    });
  const other: Db = { ...db, ...wrap(db), tx: (fn) => db.tx((q) => fn(wrap(q))) };
  return { db: other, seen };
}

const kickoff = (on: Db, job: string) =>
  createExecution({ db: on, crew, principal: org, request: { inputs: { job } } });

beforeAll(async () => {
  const { openFreshEmbeddedInMemory } = await import("../support/pglite-template");
  const { loadCrews } = await import("@/lib/crew/load-crews");
  ({ createExecution } = await import("@/lib/runs/create-execution"));
  ({ getExecutionOrThrow } = await import("@/lib/runs/get-execution"));
  defs = await import("@/lib/runs/crew-definitions");
  store = await import("@/lib/runs/execution-store");
  db = await openFreshEmbeddedInMemory();
  const found = loadCrews(FIXTURE_CREWS).crews.get("three-step");
  if (!found) throw new Error("fixture crew three-step missing");
  crew = found;
});

afterAll(async () => {
  await db.close();
});

describe("crew definitions", () => {
  it("stores a definition once, however many processes and runs start it", async () => {
    const a = handle();
    const b = handle();
    const ids = await Promise.all([kickoff(a.db, "1"), kickoff(a.db, "2"), kickoff(b.db, "3")]);
    await kickoff(a.db, "4");
    // Each process writes it once (the concurrent kickoffs of one wait for the same write).
    for (const { seen } of [a, b])
      expect(seen.filter((s) => s.startsWith("INSERT INTO crew_definitions"))).toHaveLength(1);

    const { rows } = await queryAs<{ key: string; definition: CrewDef }>(
      db,
      "SELECT key, definition FROM crew_definitions",
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.key).toBe(defs.definitionKey(JSON.stringify(crew)));
    expect(rows[0]?.definition.tasks.map((t) => t.id)).toEqual(crew.tasks.map((t) => t.id));
    const runs = await queryAs<{ crew_def: string; crew_snapshot: unknown }>(
      db,
      "SELECT crew_def, crew_snapshot FROM executions WHERE id = ANY($1::uuid[])",
      [ids],
    );
    expect(runs.rows).toHaveLength(3);
    for (const r of runs.rows) expect(r).toEqual({ crew_def: rows[0]?.key, crew_snapshot: null });
  });

  it("tries the write again after it failed, and starts no run without it", async () => {
    const changed = { ...crew, name: "Three step, edited" }; // a new definition, a new key
    let failures = 1;
    const flaky = handle((sql) => sql.includes("crew_definitions") && failures-- > 0);
    const start = (job: string) =>
      createExecution({
        db: flaky.db,
        crew: changed,
        principal: org,
        request: { inputs: { job } },
      });
    const before = (await db.query("SELECT 1 FROM executions")).rowCount;
    await expect(start("x")).rejects.toThrow("refused by the test");
    expect((await db.query("SELECT 1 FROM executions")).rowCount).toBe(before);

    flaky.seen.length = 0;
    const id = await start("y");
    expect(flaky.seen[0]).toBe("INSERT INTO crew_definitions");
    const [row] = await readRows(db, [id]);
    expect(row?.crew_snapshot.name).toBe("Three step, edited");
  });

  it("reads a definition once per process and shares it frozen", async () => {
    const ids = await Promise.all([kickoff(db, "r1"), kickoff(db, "r2")]);
    const first = handle();
    const rows = await readRows(first.db, ids);
    const second = await readRows(first.db, ids);
    // Already read by the tests above, or by the first call here: never read again.
    expect(first.seen.filter((s) => s.includes("crew_definitions")).length).toBeLessThanOrEqual(1);
    expect(rows[0]?.crew_snapshot).toBe(rows[1]?.crew_snapshot);
    expect(second[0]?.crew_snapshot).toBe(rows[0]?.crew_snapshot);
    const shared = rows[0]?.crew_snapshot as CrewDef;
    expect(Object.isFrozen(shared.tasks[0])).toBe(true);
    expect(() => {
      (shared.tasks as unknown as unknown[]).push({});
    }).toThrow(TypeError);
  });

  it("still reads and changes runs that keep their own copy", async () => {
    const id = "22222222-2222-4222-8222-222222222222";
    const copy = { ...crew, name: "Kept copy", inputs: ["job"] };
    await db.query(
      `INSERT INTO executions (id, crew, status, inputs, crew_snapshot, tasks, last_seq)
       VALUES ($1, 'three-step', 'queued', '{"job":"old"}'::jsonb, $2::jsonb, '[]'::jsonb, 0)`,
      [id, JSON.stringify(copy)],
    );
    const summary = await getExecutionOrThrow({ db, crew: "three-step", id, principal: org });
    expect(summary.input_order).toEqual(["job"]);
    const changed = await db.tx((q) =>
      store.mutateExecution(q, { id }, (row) => {
        expect(row.crew_snapshot.name).toBe("Kept copy");
        return { patch: { status: "cancelled" }, events: [{ type: "execution_cancelled" }] };
      }),
    );
    expect(changed?.row.crew_snapshot.name).toBe("Kept copy");
    expect(changed?.row.status).toBe("cancelled");
  });

  it("gives a run that names its definition the same summary and the crew in every change", async () => {
    const id = await kickoff(db, "s");
    const summary = await getExecutionOrThrow({ db, crew: "three-step", id, principal: org });
    expect(summary.input_order).toEqual(crew.inputs);
    const changed = await db.tx((q) =>
      store.mutateExecution(q, { id }, (row) => {
        expect(row.crew_snapshot.tasks.map((t) => t.id)).toEqual(crew.tasks.map((t) => t.id));
        return { patch: { status: "cancelled" }, events: [{ type: "execution_cancelled" }] };
      }),
    );
    // Webhook payloads and notifications are made from the changed row: it keeps the crew.
    expect(changed?.row.crew_snapshot.name).toBe(crew.name);
  });

  it("refuses a run with neither a definition nor a copy", async () => {
    await expect(
      db.query(
        `INSERT INTO executions (id, crew, status, inputs, tasks)
         VALUES ('33333333-3333-4333-8333-333333333333', 'c', 'queued', '{}'::jsonb, '[]'::jsonb)`,
      ),
    ).rejects.toThrow(/executions_one_crew/);
  });
});

async function readRows(on: Db, ids: string[]) {
  const { rows } = await queryAs<ExecutionRow>(
    on,
    "SELECT * FROM executions WHERE id = ANY($1::uuid[]) ORDER BY created_at",
    [ids],
  );
  return defs.withCrews(on, rows);
}
