import { describe, expect, it } from "vitest";
import { executionPiece } from "@/lib/runs/execution-insert";

// The statement that creates a run, with no database: each value passed once, in its place.

describe("a run's insert", () => {
  const piece = executionPiece({
    id: "id1",
    crew: "c",
    starter: { ownerUserId: "u", tokenId: null, via: "schedule", name: "nightly", scheduleId: "s" },
    inputs: "{}",
    meta: null,
    webhooks: "{}",
    definitionKey: "k",
    tasks: "[]",
    queuedData: '{"crew":"c"}',
    flow: null,
    origin: { id: "o", kind: "fork" },
    concurrencyKey: "ck",
    concurrencyOwner: null,
    firstEvents: [
      { seq: 2, type: "task_inherited", task_id: "a", attempt: 1, data: {}, created_at: "t" },
    ],
    ledger: [],
  });
  const params: unknown[] = [];
  const got = piece((value) => {
    params.push(value);
    return `$${params.length}`;
  }, "k0_");

  it("passes every value once, in the order they are numbered", () => {
    expect(params).toEqual([
      "id1",
      "c",
      "u",
      null,
      "{}",
      null,
      "{}",
      "k",
      "[]",
      "schedule",
      "nightly",
      '{"crew":"c"}',
      null,
      "o",
      "fork",
      2,
      '[{"seq":2,"type":"task_inherited","task_id":"a","attempt":1,"data":{},"created_at":"t"}]',
      "[]",
      "ck",
      "s",
      null,
      null,
    ]);
  });
  it("puts each in its column: last_seq after the inherited events, the starter's name first", () => {
    const [execution, queued, firsts, ledger] = got.ctes;
    expect(execution).toContain(
      "VALUES ($1::uuid, $2, 'queued', $3::uuid, $4::uuid, $5::jsonb, $6::jsonb, $7::jsonb,",
    );
    expect(execution).toContain("$8, $9::jsonb, $16::int, $10,");
    expect(execution).toContain(
      "COALESCE($11, (SELECT COALESCE(label, display_prefix) FROM api_tokens WHERE id = $4::uuid)",
    );
    expect(execution).toContain("$13::jsonb, $14::uuid, $15, $19, $20::uuid, $21::uuid,");
    expect(execution).toContain("$22::uuid, clock_timestamp())");
    expect(queued).toContain("SELECT id, 1, 'execution_queued', $12::jsonb FROM k0_execution");
    expect(firsts).toContain("jsonb_to_recordset($17::jsonb)");
    expect(ledger).toContain("jsonb_to_recordset($18::jsonb)");
    expect(got.applied).toBe("EXISTS (SELECT 1 FROM k0_execution)");
    expect(got.notify).toEqual([{ channel: "crewdeck_work", payload: "id1" }]);
  });
});
