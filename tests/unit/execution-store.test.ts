import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CrewDef } from "@/lib/crew/schema";
import type { Db } from "@/lib/db/types";
import type { ExecutionRow } from "@/lib/run-model/types";
import type { Change } from "@/lib/runs/execution-store";
import { DB_KINDS, openTestDb } from "../support/both-dbs";
import { ORG } from "../support/principals";
import { queryAs } from "../support/rows";

// The one write path (mutateExecution) on both databases: what a change writes to the row, which
// of its events are stored, and where their webhooks go. (The drivers differ in how they pass a
// JavaScript array: node-postgres as a PostgreSQL array, PGlite as JSON.)
let db: Db;
let close: () => Promise<void>;
let crew: CrewDef;
let store: typeof import("@/lib/runs/execution-store");
let createExecution: typeof import("@/lib/runs/create-execution").createExecution;

beforeAll(async () => {
  // The webhooks below are never sent (no delivery worker runs): only where they would go.
  process.env.WEBHOOK_ALLOWED_NETWORKS = "127.0.0.0/8";
  const { loadCrews } = await import("@/lib/crew/load-crews");
  store = await import("@/lib/runs/execution-store");
  ({ createExecution } = await import("@/lib/runs/create-execution"));
  const found = loadCrews(path.resolve("tests/fixtures/crews")).crews.get("three-step");
  if (!found) throw new Error("fixture crew three-step missing");
  crew = found;
});

const OLD = "http://127.0.0.1:9/old";
const NEW = "http://127.0.0.1:9/new";

const kickoff = () =>
  createExecution({
    db,
    crew,
    principal: ORG,
    request: { inputs: { job: "x" }, taskWebhookUrl: OLD },
  });
const change = (id: string, decide: Change | ((row: ExecutionRow) => Change)) =>
  db.tx((q) =>
    store.mutateExecution(q, { id }, (row) =>
      typeof decide === "function" ? decide(row) : decide,
    ),
  );

describe.each(DB_KINDS)("the write path, %s", (kind) => {
  beforeAll(async () => {
    ({ db, close } = await openTestDb(kind));
  });
  afterAll(async () => {
    await close();
  });

  it("writes text, dates and JSON columns as their types; a null JSON column is SQL NULL", async () => {
    const id = await kickoff();
    const until = new Date("2030-01-02T03:04:05.000Z");
    const out = await change(id, (row) => ({
      patch: {
        status: "running",
        tasks: row.tasks.map((t, i) => (i === 0 ? { ...t, status: "running" } : t)),
        current_task: "t1",
        lease_owner: "w1",
        lease_expires_at: until,
        open_reviews: [],
        token_usage: { input_tokens: 8, output_tokens: 4, total_tokens: 12 },
        last_step: { type: "thought", text: "hm" },
        pending_human_input: null,
      },
    }));
    expect(out?.row).toMatchObject({ status: "running", current_task: "t1", lease_owner: "w1" });
    const { rows } = await queryAs<Record<string, unknown>>(
      db,
      `SELECT status, current_task, lease_expires_at = $2::timestamptz AS lease_kept,
              jsonb_typeof(open_reviews) AS reviews_type, tasks->0->>'status' AS first_task,
              token_usage, last_step, pending_human_input IS NULL AS phi_is_null
         FROM executions WHERE id = $1`,
      [id, until.toISOString()],
    );
    expect(rows[0]).toEqual({
      status: "running",
      current_task: "t1",
      lease_kept: true,
      reviews_type: "array",
      first_task: "running",
      token_usage: { input_tokens: 8, output_tokens: 4, total_tokens: 12 },
      last_step: { type: "thought", text: "hm" },
      phi_is_null: true,
    });
  });

  it("stores a keyed event once, across changes and within one; events without a key always", async () => {
    const id = await kickoff();
    const first = await change(id, { events: [{ key: "remote:1", type: "thought" }] });
    expect(first?.events.map((e) => e.type)).toEqual(["thought"]);
    const second = await change(id, {
      events: [
        { key: "remote:1", type: "thought", data: { again: true } },
        { key: "remote:2", type: "tool_call" },
        { type: "thought", data: { n: 1 } },
        { key: "remote:2", type: "tool_call", data: { twice: true } },
        { type: "thought", data: { n: 2 } },
      ],
    });
    expect(second?.events.map((e) => [e.type, e.data])).toEqual([
      ["tool_call", {}],
      ["thought", { n: 1 }],
      ["thought", { n: 2 }],
    ]);
    const { rows } = await queryAs<{ seq: number; type: string; source_key: string | null }>(
      db,
      "SELECT seq, type, source_key FROM execution_events WHERE execution_id = $1 ORDER BY seq",
      [id],
    );
    expect(rows).toEqual([
      { seq: 1, type: "execution_queued", source_key: null },
      { seq: 2, type: "thought", source_key: "remote:1" },
      { seq: 3, type: "tool_call", source_key: "remote:2" },
      { seq: 4, type: "thought", source_key: null },
      { seq: 5, type: "thought", source_key: null },
    ]);
  });

  it("sends a pause's events to the webhooks it ends, any other change's to those after it", async () => {
    const id = await kickoff();
    const task = crew.tasks[0]?.id as string;
    await change(id, {
      patch: { webhooks: { task: NEW } },
      events: [{ type: "review_requested", task_id: task }],
      webhooksFor: "before",
    });
    await change(id, {
      patch: { webhooks: { task: `${NEW}/2` } },
      events: [{ type: "task_completed", task_id: task }],
    });
    const { rows } = await queryAs<{ event_seq: number; kind: string; url: string }>(
      db,
      "SELECT event_seq, kind, url FROM webhook_deliveries WHERE execution_id = $1 ORDER BY event_seq",
      [id],
    );
    expect(rows).toEqual([
      { event_seq: 2, kind: "task", url: OLD },
      { event_seq: 3, kind: "task", url: `${NEW}/2` },
    ]);
  });
});
