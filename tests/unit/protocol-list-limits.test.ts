import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/types";
import { ListTasksParams } from "@/lib/protocols/a2a/params";
import { RunTaskStore } from "@/lib/protocols/mcp/task-store";
import { protocolRuns } from "@/lib/protocols/runs";
import { embeddedDbForFile } from "../support/embedded-db";
import { ORG } from "../support/principals";

// Listing the runs a protocol started (A2A ListTasks, MCP tasks/list) costs what one page costs:
// the total is counted up to 10,000, as the runs list counts, and a page token is a small number.
const embedded = embeddedDbForFile("protocol-list-limits");
let db: Db;

beforeAll(async () => {
  db = embedded.db;
  await db.query(
    `INSERT INTO executions (id, crew, status, inputs, crew_snapshot, tasks, meta, created_at)
     SELECT gen_random_uuid(), 'many', 'completed', '{}'::jsonb, '{}'::jsonb, '[]'::jsonb,
            '{"protocol": "a2a"}'::jsonb,
            '2026-01-01T00:00:00Z'::timestamptz + make_interval(secs => n)
       FROM generate_series(1, 10001) n`,
  );
});

describe("listing a protocol's runs", () => {
  it("counts at most 10,000 matches, and pages no further", async () => {
    const first = await protocolRuns(db, ORG, "a2a", { offset: 0, limit: 2 });
    expect(first.runs).toHaveLength(2);
    expect(first.total).toBe(10_000);
    const past = await protocolRuns(db, ORG, "a2a", { offset: 10_000, limit: 2 });
    expect(past).toEqual({ runs: [], total: 10_000 });
  });

  it("an A2A page token is at most 9 digits: longer is invalid params, not a database error", () => {
    expect(ListTasksParams.safeParse({ pageToken: "123456789" }).success).toBe(true);
    expect(ListTasksParams.safeParse({ pageToken: "" }).success).toBe(true);
    for (const pageToken of ["1234567890", "9".repeat(400), "Infinity", "-1", "1e3"])
      expect(ListTasksParams.safeParse({ pageToken }).success).toBe(false);
  });

  it("an MCP cursor is the same small number", async () => {
    const store = new RunTaskStore(db, ORG);
    for (const cursor of ["1e300", "9".repeat(400), "1234567890", "-1"])
      await expect(store.listTasks(cursor)).rejects.toThrow(/Invalid cursor/);
  });
});
