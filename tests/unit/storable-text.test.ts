import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  storableJsonText,
  storableParams,
  storableText,
  storableValue,
} from "@/lib/db/storable-text";
import type { Db } from "@/lib/db/types";
import { sha256Hex } from "@/lib/ledger/entry";
import { sha256 } from "@/lib/run-model/open-reviews";
import type { ExecutionRow } from "@/lib/run-model/types";
import type { ExecutionWriter } from "@/lib/runs/execution-writer";
import { DB_KINDS, openTestDb } from "../support/both-dbs";
import { queryAs } from "../support/rows";

// What PostgreSQL refuses (NUL anywhere, lone surrogates in jsonb) must not end a run: every
// parameter of every statement is made storable (lib/db/storable-text.ts). Hostile text goes
// through the worker's writer and back out of /status's view on both databases, and reads back
// as the sanitised input: NUL as "␀", a lone surrogate as U+FFFD, nothing else changed or lost.

describe("storable text", () => {
  it("writes NUL as ␀ and lone surrogates as U+FFFD; leaves everything else alone", () => {
    expect(storableText("before\0after")).toBe("before␀after");
    expect(storableText("a\ud800b\udc00c")).toBe("a\ufffdb\ufffdc");
    const whole = "plain \u202e😀 \\u0000";
    expect(storableText(whole)).toBe(whole);
  });

  it("reads JSON escapes from the left: an escaped backslash is not an escape", () => {
    expect(storableJsonText(JSON.stringify({ "k\0": "v\0\ud800" }))).toBe('{"k␀":"v␀\ufffd"}');
    expect(storableJsonText(JSON.stringify("\\u0000 \\ud800"))).toBe('"\\\\u0000 \\\\ud800"');
    expect(storableJsonText('"\\ud83d\\ude00 \\\\\\u0000"')).toBe('"\\ud83d\\ude00 \\\\␀"');
    expect(storableJsonText('"\\udc00\\ud800"')).toBe('"\ufffd\ufffd"');
  });

  it("a review's output is hashed as stored, so as the reviewer sees it", () => {
    expect(sha256("draft\0\ud800")).toBe(sha256Hex("draft␀\ufffd"));
  });

  it("changes a parameter as JSON only where the statement reads it as JSON", () => {
    const json = JSON.stringify({ t: "\0" });
    const sql = "INSERT INTO t (a, b, c) VALUES ($1, $2::jsonb, $3::text::json)";
    expect(storableParams(sql, [json, json, json])).toEqual([json, '{"t":"␀"}', '{"t":"␀"}']);
    const clean = [1, "x", null, ["y"]];
    expect(storableParams(sql, clean)).toBe(clean);
    expect(storableParams(sql, [["a\0"], "b\0"])).toEqual([["a␀"], "b␀"]);
    // An object, which the drivers write as JSON; a date or bytes are left to them.
    const at = new Date(0);
    const bytes = new Uint8Array([0]);
    expect(storableParams(sql, [{ "k\0": ["\ud800"] }, at, bytes])).toEqual([
      { "k␀": ["\ufffd"] },
      at,
      bytes,
    ]);
  });
});

// Strings made of the pieces that hurt: NUL, lone surrogates of each half, right-to-left marks,
// escapes as text, the stand-in itself, pairs that are whole, quotes, and any other character.
const hostileUnit = fc.oneof(
  fc.constantFrom("\0", "\ud800", "\udbff", "\udc00", "\udfff", "\u202e", "\u2400", "\ufffd"),
  fc.constantFrom("\\u0000", "\\ud800", "\\", '"', "😀", "__proto__", "\n", "\u0001"),
  fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
);
const hostileText = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit: hostileUnit, maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constant(`${"long line \0 ".repeat(1_667)}\ud800`.slice(0, 20_000)) },
);
const deep = (depth: number): unknown =>
  depth ? { [`k${depth % 3 ? "" : "\0"}`]: [deep(depth - 1), "\ud800"] } : "bottom\0";
const hostileJson = fc.oneof(
  { weight: 6, arbitrary: fc.jsonValue({ stringUnit: hostileUnit, maxDepth: 4 }) },
  { weight: 1, arbitrary: fc.constant(deep(200)) },
  {
    weight: 1,
    arbitrary: fc.constant(JSON.parse('{"__proto__":{"a\\u0000":1},"constructor":"\\ud800"}')),
  },
);

const FIXTURE_CREWS = path.resolve(import.meta.dirname, "../fixtures/crews");

describe.each(DB_KINDS)("on the %s database", (kind) => {
  let db: Db;
  let close: () => Promise<void>;
  let writer: ExecutionWriter;
  let id: string;

  beforeAll(async () => {
    ({ db, close } = await openTestDb(kind));
    const { loadCrews } = await import("@/lib/crew/load-crews");
    const { createExecution } = await import("@/lib/runs/create-execution");
    const { executionWriter } = await import("@/lib/runs/execution-writer");
    const crew = loadCrews(FIXTURE_CREWS).crews.get("three-step");
    if (!crew) throw new Error("fixture crew three-step missing");
    id = await createExecution({
      db,
      crew,
      principal: { kind: "org", tokenId: null },
      request: { inputs: { job: "write" } },
    });
    const { rows } = await queryAs<ExecutionRow>(
      db,
      // Step webhooks (never sent here: no delivery worker) make outbox rows of the same texts.
      `UPDATE executions SET lease_owner = 'fuzz', lease_expires_at = now() + interval '1 hour',
         webhooks = '{"step": "http://127.0.0.1:9/step"}' WHERE id = $1 RETURNING *`,
      [id],
    );
    const { withCrews } = await import("@/lib/runs/crew-definitions");
    const [row] = await withCrews(db, rows); // with its crew, as the worker reads a run
    writer = executionWriter({ db, row: row as ExecutionRow, leaseOwner: "fuzz" });
    await writer.change(() => ({ patch: { status: "running" } }));
  }, 60_000);
  afterAll(() => close?.());

  it("hostile text and JSON go through the writer and /status's view, read back sanitised", async () => {
    const { statusJson } = await import("@/lib/runs/status-view");
    const prices = {};
    await fc.assert(
      fc.asyncProperty(hostileText, hostileJson, async (text, value) => {
        const data = { text, value, [text]: "as a key" };
        const after = await writer.change((r) => ({
          patch: {
            result: text,
            error: text,
            last_step: { type: "thought", task_id: "one", agent: text, attempt: 1, text, at: "x" },
            tasks: r.tasks.map((t, i) => (i ? t : { ...t, output: text, error: text })),
          },
          events: [{ type: "thought", task_id: text, attempt: 1, data }],
          artifacts: [
            { task_id: "one", name: `f/${text}`, content_type: "text/plain", body: text, bytes: 0 },
          ],
        }));
        const events = await queryAs<{ task_id: string; data: unknown }>(
          db,
          "SELECT task_id, data FROM execution_events WHERE execution_id = $1 AND seq = $2",
          [id, after.last_seq],
        );
        expect(events.rows[0]?.task_id).toBe(storableText(text));
        // Stored as JSON, where -0 is 0: compared with what a JSON round trip keeps.
        expect(events.rows[0]?.data).toEqual(JSON.parse(JSON.stringify(storableValue(data))));
        const { rows } = await queryAs<Parameters<typeof statusJson>[0]>(
          db,
          "SELECT *, NULL AS input_order FROM executions WHERE id = $1",
          [id],
        );
        const body = JSON.parse(statusJson(rows[0] as Parameters<typeof statusJson>[0], prices));
        const stored = storableText(text);
        expect([body.result, body.error, body.last_step.text, body.tasks[0].output]).toEqual([
          stored,
          stored,
          stored,
          stored,
        ]);
        expect(rows[0]?.result).toBe(stored);
        const file = await queryAs<{ body: string; bytes: number }>(
          db,
          "SELECT body, bytes FROM execution_artifacts WHERE execution_id = $1 AND name = $2",
          [id, `f/${text}`],
        );
        expect(file.rows).toEqual([{ body: stored, bytes: Buffer.byteLength(stored) }]);
        const hook = await queryAs<{ payload: unknown }>(
          db,
          "SELECT payload FROM webhook_deliveries WHERE execution_id = $1 AND event_seq = $2",
          [id, after.last_seq],
        );
        expect(hook.rows).toHaveLength(1);
        expect(JSON.stringify(hook.rows[0]?.payload)).toContain(
          JSON.stringify(stored).slice(1, -1),
        );
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it("a review with NUL and a lone surrogate in its texts is hashed as stored: the ledger verifies", async () => {
    const { appendLedger } = await import("@/lib/ledger/append");
    const { listLedger } = await import("@/lib/ledger/list-entries");
    const { verifyChain } = await import("@/lib/ledger/verify");
    const { rows } = await queryAs<ExecutionRow>(db, "SELECT * FROM executions WHERE id = $1", [
      id,
    ]);
    const at = new Date().toISOString();
    const event = (seq: number, type: string, data: Record<string, unknown>) => ({
      seq,
      type,
      task_id: "one\0",
      attempt: 1,
      data,
      created_at: at,
    });
    await appendLedger(db, rows[0] as ExecutionRow, [
      event(1, "review_requested", { output: "draft\0\ud800", assignees: ["a\0@example.com"] }),
      event(2, "review_submitted", {
        reviewer: "b\0@example.com",
        decision: "reject",
        feedback: "no\0 \udc00 here",
        edited_output: "x\0",
        response: { "k\0": "v\ud800" },
      }),
    ]);
    const entries = await listLedger({ q: db, id });
    expect(entries.map((e) => [e.actor, e.task_id])).toEqual([
      ["system", "one␀"],
      ["b␀@example.com", "one␀"],
    ]);
    expect(entries[1]?.decision).toMatchObject({ feedback: "no␀ \ufffd here" });
    expect(verifyChain(entries)).toMatchObject({ ok: true, entries: 2 });
  });
});
