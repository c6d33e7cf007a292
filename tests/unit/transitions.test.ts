import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/types";
import type { ExecutionStatus } from "@/lib/run-model/states";

// The state machine is enforced where state is written: the execution store refuses an illegal
// move (completing a cancelled run, resuming a completed one), on the real embedded database,
// and leaves the row and its event log exactly as they were.
const FIXTURE_CREWS = path.resolve(import.meta.dirname, "../fixtures/crews");
let tmp: string;
let db: Db;
let store: typeof import("@/lib/runs/execution-store");
let newExecution: () => Promise<string>;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-transitions-"));
  const { openFreshEmbeddedInMemory } = await import("../support/pglite-template");
  db = await openFreshEmbeddedInMemory();
  store = await import("@/lib/runs/execution-store");
  const { loadCrews } = await import("@/lib/crew/load-crews");
  const { createExecution } = await import("@/lib/runs/create-execution");
  const crew = loadCrews(FIXTURE_CREWS).crews.get("three-step");
  if (!crew) throw new Error("fixture crew three-step missing");
  newExecution = () =>
    createExecution({
      db,
      crew,
      principal: { kind: "org", tokenId: null },
      request: { inputs: { job: "transitions" } },
    });
}, 60_000);

afterAll(async () => {
  await db?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** Moves an execution through legal states with the store itself. */
async function drive(id: string, statuses: ExecutionStatus[]) {
  for (const status of statuses) {
    await db.tx((q) =>
      store.mutateExecution(q, { id }, () => ({
        patch: { status },
        events: [{ type: `test_${status}` }],
      })),
    );
  }
}

async function snapshot(id: string) {
  const row = await db.query("SELECT * FROM executions WHERE id = $1", [id]);
  const events = await db.query(
    "SELECT * FROM execution_events WHERE execution_id = $1 ORDER BY seq",
    [id],
  );
  const deliveries = await db.query("SELECT * FROM webhook_deliveries WHERE execution_id = $1", [
    id,
  ]);
  return { row: row.rows, events: events.rows, deliveries: deliveries.rows };
}

describe("illegal transitions through the execution store", () => {
  it.each([
    { path: ["cancelled"], to: "completed", what: "completing a cancelled run" },
    { path: ["running", "completed"], to: "running", what: "resuming a completed run" },
    { path: ["running", "error"], to: "pending_human_input", what: "pausing a failed run" },
    { path: [], to: "pending_human_input", what: "pausing a run that never started" },
  ] as { path: ExecutionStatus[]; to: ExecutionStatus; what: string }[])(
    "refuses $what, changing nothing",
    async ({ path: legal, to }) => {
      const id = await newExecution();
      await drive(id, legal);
      const before = await snapshot(id);
      expect(before.row[0]?.status).toBe(legal.at(-1) ?? "queued");

      await expect(
        db.tx((q) =>
          store.mutateExecution(q, { id }, () => ({
            patch: { status: to, result: "should not be written" },
            events: [{ type: "task_completed", task_id: "one", data: { output: "no" } }],
          })),
        ),
      ).rejects.toThrow(`execution cannot go from ${legal.at(-1) ?? "queued"} to ${to}`);
      expect(await snapshot(id)).toEqual(before);
    },
  );
});
