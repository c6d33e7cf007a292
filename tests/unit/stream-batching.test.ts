import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/types";
import type { NewEvent } from "@/lib/run-model/types";
import { embeddedDbForFile } from "../support/embedded-db";
import { queryAs } from "../support/rows";

// The outbox side of the kickoff's `webhooks` stream, on the real embedded database: which events
// become deliveries, and how `realtime: false` gathers them into batches. Each step is a
// transaction the test makes itself, so what joins which batch does not depend on timing.
const FIXTURE_CREWS = path.resolve(import.meta.dirname, "../fixtures/crews");
const ENV = { WEBHOOK_ALLOWED_NETWORKS: "127.0.0.2/32" };
let db: Db;

const embedded = embeddedDbForFile("stream", ENV);
beforeAll(() => {
  db = embedded.db;
});

async function startRun(webhooks: Record<string, unknown>) {
  const { loadCrews } = await import("@/lib/crew/load-crews");
  const { createExecution } = await import("@/lib/runs/create-execution");
  const { KickoffRequestSchema } = await import("@/lib/contract/crew");
  const crew = loadCrews(FIXTURE_CREWS).crews.get("three-step");
  if (!crew) throw new Error("fixture crew three-step missing");
  const request = KickoffRequestSchema.parse({ inputs: { job: "x" }, webhooks });
  return createExecution({ db, crew, principal: { kind: "org", tokenId: null }, request });
}

async function write(id: string, events: NewEvent[]) {
  const { mutateExecution } = await import("@/lib/runs/execution-store");
  await db.tx((q) => mutateExecution(q, { id }, () => ({ events })));
}

async function deliveries(id: string) {
  const { rows } = await queryAs<{
    payload: { events: { type: string; sequence: number }[] };
    auth_sealed: string | null;
    kind: string;
  }>(
    db,
    "SELECT payload, auth_sealed, kind FROM webhook_deliveries WHERE execution_id = $1 ORDER BY position",
    [id],
  );
  return rows;
}

const done = (task: string): NewEvent => ({
  type: "task_completed",
  task_id: task,
  attempt: 1,
  data: { output: `out ${task}` },
});
const thought: NewEvent = { type: "thought", task_id: "one", attempt: 1, data: { text: "hm" } };

describe("streamed webhooks in the outbox", () => {
  it("realtime: one delivery per listed event; unlisted events make none", async () => {
    const id = await startRun({
      events: ["task_completed"],
      url: "http://127.0.0.2:9/s",
      realtime: true,
      authentication: { strategy: "bearer", token: "tok-1" },
    });
    await write(id, [done("one"), thought]);
    await write(id, [done("two")]);
    const rows = await deliveries(id);
    expect(rows.map((r) => r.payload.events.map((e) => e.type))).toEqual([
      ["task_completed"],
      ["task_completed"],
    ]);
    const { unseal } = await import("@/lib/config/encryption");
    expect(rows.map((r) => unseal(r.auth_sealed ?? ""))).toEqual(["Bearer tok-1", "Bearer tok-1"]);
    const stored = await queryAs<{ webhooks: string }>(
      db,
      "SELECT webhooks::text FROM executions WHERE id = $1",
      [id],
    );
    expect(stored.rows[0]?.webhooks).not.toContain("tok-1");
  });

  it("batched: events join the unsent batch; once a batch has been tried, a new one begins", async () => {
    const id = await startRun({ events: ["task_completed"], url: "http://127.0.0.2:9/b" });
    await write(id, [done("one")]);
    await write(id, [thought, done("two")]);
    let rows = await deliveries(id);
    expect(rows.map((r) => r.payload.events.length)).toEqual([2]);
    expect(rows[0]?.auth_sealed).toBeNull();
    // A worker claims it (its first attempt): what comes next is not added to what was sent.
    await db.query(
      "UPDATE webhook_deliveries SET status = 'delivering', attempts = 1 WHERE execution_id = $1",
      [id],
    );
    await write(id, [done("three")]);
    rows = await deliveries(id);
    expect(rows.map((r) => r.payload.events.map((e) => e.sequence))).toEqual([[2, 4], [5]]);
  });
});
