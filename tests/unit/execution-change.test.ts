import { describe, expect, it } from "vitest";
import { appliedEvents, changeStatement, wakes } from "@/lib/runs/execution-store";
import { atOnceNotices, lastFiles } from "@/lib/runs/write-at-once";

// The write path's decisions with no database: how events are numbered, what the one statement
// writes, and who else a change wakes.

describe("a change's events as written", () => {
  it("are numbered on from the row's last, stamped, their data never absent", () => {
    expect(
      appliedEvents(
        [{ type: "a" }, { type: "b", task_id: "t", attempt: 2, data: { x: 1 } }],
        4,
        "now",
      ),
    ).toEqual([
      { seq: 5, type: "a", task_id: null, attempt: null, data: {}, created_at: "now" },
      { seq: 6, type: "b", task_id: "t", attempt: 2, data: { x: 1 }, created_at: "now" },
    ]);
  });
});

describe("a change's statement", () => {
  it("sets only the columns patched, JSON ones as JSON (null stays null)", () => {
    const { sql, params } = changeStatement(
      "id",
      { status: "running", tasks: [], pending_human_input: null },
      [],
      [],
    );
    expect(params).toEqual(["id", "running", "[]", null]);
    expect(sql).toContain(
      "SET updated_at = now(), version = version + 1, status = $2, tasks = $3::jsonb, pending_human_input = $4::jsonb FROM notified",
    );
    expect(sql).not.toContain("INSERT INTO execution_events");
    expect(sql).not.toContain("last_seq");
  });
  it("inserts its events and moves last_seq to the last of them", () => {
    const applied = appliedEvents([{ type: "a" }, { type: "b", data: { y: 2 } }], 7, "now");
    const { sql, params } = changeStatement("id", {}, applied, [null, "k"]);
    expect(params).toEqual([
      "id",
      9,
      8,
      "a",
      null,
      null,
      "{}",
      "now",
      null,
      9,
      "b",
      null,
      null,
      '{"y":2}',
      "now",
      "k",
    ]);
    expect(sql).toContain("version = version + 1, last_seq = $2 FROM notified");
    expect(sql).toContain(
      "VALUES ($1, $3, $4, $5, $6, $7::jsonb, $8, $9), ($1, $10, $11, $12, $13, $14::jsonb, $15, $16))",
    );
  });
});

describe("who a change wakes", () => {
  const run = { concurrency_key: null, meta: null, parent_id: null } as const;
  it("the next run with its concurrency key, once it ends", () => {
    expect(
      wakes({ status: "running" }, { ...run, status: "completed", concurrency_key: "k" }).work,
    ).toBe(true);
    expect(
      wakes({ status: "error" }, { ...run, status: "completed", concurrency_key: "k" }).work,
    ).toBe(false);
    expect(wakes({ status: "running" }, { ...run, status: "completed" }).work).toBe(false);
    expect(
      wakes({ status: "queued" }, { ...run, status: "running", concurrency_key: "k" }).work,
    ).toBe(false);
  });
  it("its experiment, once it ends", () => {
    const meta = { experiment: "e1" };
    expect(wakes({ status: "running" }, { ...run, status: "error", meta }).experiment).toBe("e1");
    expect(wakes({ status: "queued" }, { ...run, status: "running", meta }).experiment).toBeNull();
    expect(
      wakes({ status: "running" }, { ...run, status: "error", meta: { experiment: 1 } }).experiment,
    ).toBeNull();
  });
  it("its flow on any change of status, saying whether it ended", () => {
    const nested = { ...run, parent_id: "p" };
    expect(wakes({ status: "running" }, { ...nested, status: "running" }).parent).toBeNull();
    expect(
      wakes({ status: "running" }, { ...nested, status: "pending_human_input" }).parent,
    ).toEqual({
      id: "p",
      ended: false,
    });
    expect(wakes({ status: "running" }, { ...nested, status: "completed" }).parent).toEqual({
      id: "p",
      ended: true,
    });
  });
});

describe("a batch's files", () => {
  it("keep the last output under each name, in the order first written", () => {
    const file = (name: string, body: string) => ({
      task_id: "t",
      name,
      content_type: "text/plain",
      body,
      bytes: body.length,
    });
    const got = lastFiles([
      { change: { artifacts: [file("a", "1"), file("b", "2")] } },
      { change: {} },
      { change: { artifacts: [file("a", "3")] } },
    ]);
    expect(got.map((f) => [f.name, f.body])).toEqual([
      ["a", "3"],
      ["b", "2"],
    ]);
  });
});

describe("who hears of a plain write", () => {
  const run = { concurrency_key: null, meta: null, parent_id: null };
  it("every process's cache of the run, always", () => {
    expect(atOnceNotices({ id: "r", status: "running" }, { ...run, status: "running" })).toEqual([
      { channel: "crewdeck_exec", payload: "r" },
    ]);
  });
  it("its flow on a change of status, woken to go on once it ends; its experiment then", () => {
    const nested = { ...run, parent_id: "f", meta: { experiment: "e" } };
    expect(
      atOnceNotices({ id: "r", status: "running" }, { ...nested, status: "pending_human_input" }),
    ).toEqual([
      { channel: "crewdeck_exec", payload: "r" },
      { channel: "crewdeck_exec", payload: "f" },
    ]);
    expect(
      atOnceNotices({ id: "r", status: "running" }, { ...nested, status: "completed" }),
    ).toEqual([
      { channel: "crewdeck_exec", payload: "r" },
      { channel: "crewdeck_exec", payload: "f" },
      { channel: "crewdeck_work", payload: "f" },
      { channel: "crewdeck_experiments", payload: "e" },
    ]);
  });
});
