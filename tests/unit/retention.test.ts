import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/types";
import { type CrewRetention, ledgerCutoff, runRules } from "@/lib/retention/policy";
import { queryAs } from "../support/rows";

// Retention's rules (pure) and its deletions on the real embedded database: which finished runs
// go, with what, and what stays (recent runs, unfinished ones, runs with deliveries under way,
// crews with their own setting, ledgers within their own retention).
const NOW = new Date("2026-11-20T12:00:00Z");
// The crews the sweeper reads (lib/crew/registry): an empty folder of this file's own, filled by
// the last test.
process.env.CREWS_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-retention-crews-dir-"));
afterAll(() => fs.rmSync(process.env.CREWS_DIR as string, { recursive: true, force: true }));
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000);

describe("retention rules", () => {
  it("one rule for the default, one per crew with days of its own; unknown and forever excluded", () => {
    const crews = new Map<string, CrewRetention>([
      ["plain", undefined],
      ["short", 7],
      ["kept", "forever"],
      ["broken", "unknown"],
    ]);
    expect(runRules({ defaultDays: 30, crews, now: NOW })).toEqual([
      { cutoff: daysAgo(30), exceptCrews: ["broken", "kept", "short"] },
      { cutoff: daysAgo(7), crew: "short" },
    ]);
    // RETENTION_DAYS unset: only crews that ask for it.
    expect(runRules({ defaultDays: undefined, crews, now: NOW })).toEqual([
      { cutoff: daysAgo(7), crew: "short" },
    ]);
    expect(ledgerCutoff(undefined, NOW)).toBeUndefined();
    expect(ledgerCutoff(365, NOW)).toEqual(daysAgo(365));
  });
});

describe("retention on the embedded database", () => {
  let tmp: string;
  let db: Db;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-retention-unit-"));
    process.env.DATA_DIR = tmp;
    process.env.RETENTION_DAYS = "30";
    process.env.LEDGER_RETENTION_DAYS = "365";
    const { openFreshEmbeddedInMemory } = await import("../support/pglite-template");
    db = await openFreshEmbeddedInMemory();
  });
  afterAll(async () => {
    await db?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** A run of `crew` finished `age` days before NOW (null: not finished), with what it keeps. */
  async function run(
    crew: string,
    age: number,
    { status = "completed", delivery = "succeeded", ledgerAge = null as number | null } = {},
  ) {
    const id = randomUUID();
    await db.query(
      `INSERT INTO executions (id, crew, status, inputs, crew_snapshot, tasks, created_at, finished_at)
       VALUES ($1, $2, $3, '{}', '{}', '[]', $4, $5)`,
      [id, crew, status, daysAgo(age + 1), status === "pending_human_input" ? null : daysAgo(age)],
    );
    await db.query(
      "INSERT INTO execution_events (execution_id, seq, type) VALUES ($1, 1, 'crew_started')",
      [id],
    );
    await db.query(
      `INSERT INTO execution_artifacts (execution_id, name, task_id, content_type, body, bytes)
       VALUES ($1, 'report.md', 't', 'text/markdown', 'hi', 2)`,
      [id],
    );
    const delivery_id = randomUUID();
    await db.query(
      `INSERT INTO webhook_deliveries (id, execution_id, event_seq, kind, url, payload, status)
       VALUES ($1, $2, 1, 'crew', 'http://127.0.0.2/hook', '{}', $3)`,
      [delivery_id, id, delivery],
    );
    await db.query(
      `INSERT INTO webhook_attempts (delivery_id, attempt, started_at, latency_ms)
       VALUES ($1, 1, now(), 5)`,
      [delivery_id],
    );
    if (ledgerAge !== null) {
      for (const position of [1, 2])
        await db.query(
          `INSERT INTO review_ledger (execution_id, position, event_seq, at, actor, action, effect, prev_hash, hash)
           VALUES ($1, $2, $2, $3, 'system', 'review_requested', 'awaiting_review', 'p', 'h')`,
          [id, position, daysAgo(ledgerAge + (2 - position))],
        );
    }
    fs.mkdirSync(path.join(tmp, "workspaces", id), { recursive: true });
    fs.writeFileSync(path.join(tmp, "workspaces", id, "notes.md"), "notes");
    return id;
  }

  const count = async (table: string, id: string) =>
    (
      await queryAs<{ n: number }>(
        db,
        `SELECT count(*)::int AS n FROM ${table} WHERE execution_id = $1`,
        [id],
      )
    ).rows[0]?.n;
  const exists = async (id: string) =>
    (await db.query("SELECT 1 FROM executions WHERE id = $1", [id])).rows.length === 1;

  it("deletes old finished runs with their events, deliveries, artifacts and folders, a batch at a time", async () => {
    const { sweepOnce } = await import("@/lib/retention/sweeper");
    const old = [
      await run("plain", 40),
      await run("plain", 31, { status: "error" }),
      await run("plain", 90, { status: "cancelled" }),
      await run("short", 8),
    ];
    const reviewedOld = await run("plain", 40, { ledgerAge: 40 });
    const reviewedAncient = await run("plain", 400, { ledgerAge: 400 });
    const kept = [
      await run("plain", 29),
      await run("plain", 400, { status: "pending_human_input" }),
      await run("plain", 400, { delivery: "pending" }),
      await run("kept", 400),
      await run("short", 6),
      await run("broken", 400),
    ];
    // An orphan folder: its run was deleted by another host's sweeper.
    const orphan = randomUUID();
    fs.mkdirSync(path.join(tmp, "workspaces", orphan), { recursive: true });
    const rests: number[] = [];
    const totals = await sweepOnce({
      db,
      now: NOW,
      batchSize: 2,
      crews: new Map<string, CrewRetention>([
        ["plain", undefined],
        ["short", 7],
        ["kept", "forever"],
        ["broken", "unknown"],
      ]),
      rest: async (ms) => {
        rests.push(ms);
      },
    });
    expect(totals).toEqual({ runs: 6, ledgers: 1, workspaces: 7 });
    // Batches of two: the default rule's five runs took three, resting after each full one.
    expect(rests.length).toBeGreaterThanOrEqual(2);
    for (const id of [...old, reviewedOld, reviewedAncient]) {
      expect(await exists(id)).toBe(false);
      for (const table of ["execution_events", "execution_artifacts", "webhook_deliveries"])
        expect(await count(table, id)).toBe(0);
      expect(fs.existsSync(path.join(tmp, "workspaces", id))).toBe(false);
    }
    expect((await db.query("SELECT count(*)::int AS n FROM webhook_attempts")).rows[0]).toEqual({
      n: kept.length,
    });
    for (const id of kept) {
      expect(await exists(id)).toBe(true);
      expect(await count("execution_events", id)).toBe(1);
      expect(fs.existsSync(path.join(tmp, "workspaces", id))).toBe(true);
    }
    // The ledger outlives its run within its own retention; past it, it goes whole.
    expect(await count("review_ledger", reviewedOld)).toBe(2);
    expect(await count("review_ledger", reviewedAncient)).toBe(0);
    expect(fs.existsSync(path.join(tmp, "workspaces", orphan))).toBe(false);

    // Later, the kept ledger passes its own retention: it goes, whole.
    const later = await sweepOnce({ db, now: daysAgo(-400), crews: new Map() });
    expect(later.ledgers).toBe(1);
    expect(await count("review_ledger", reviewedOld)).toBe(0);
  });
});

describe("a crew's retention_days", () => {
  it("is read from crew.yaml and crew.jsonc: days or forever; anything else fails to load", async () => {
    const { loadCrews } = await import("@/lib/crew/load-crews");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-retention-crews-"));
    const yaml = (extra: string) =>
      `agents:\n  a:\n    role: R\n    goal: G\n    backstory: B\ntasks:\n  t:\n    description: D\n    expected_output: E\n    agent: a\n${extra}`;
    const write = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    };
    write("short/crew.yaml", yaml("retention_days: 7\n"));
    write("kept/crew.yaml", yaml("retention_days: forever\n"));
    write("plain/crew.yaml", yaml(""));
    write("bad/crew.yaml", yaml("retention_days: -3\n"));
    write(
      "json/crew.jsonc",
      JSON.stringify({
        agents: ["a"],
        tasks: [{ name: "t", description: "D", expected_output: "E", agent: "a" }],
        retention_days: 90,
      }),
    );
    write("json/agents/a.jsonc", JSON.stringify({ role: "R", goal: "G", backstory: "B" }));
    try {
      const { crews, errors } = loadCrews(dir);
      expect(crews.get("short")?.retention_days).toBe(7);
      expect(crews.get("kept")?.retention_days).toBe("forever");
      expect(crews.get("plain")).not.toHaveProperty("retention_days");
      expect(crews.get("json")?.retention_days).toBe(90);
      expect(errors).toEqual([expect.objectContaining({ slug: "bad", key: "retention_days" })]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the sweeper's view of the crews", () => {
  it("each crew's own setting; a crew that never loaded in this process keeps its runs", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-retention-catalog-"));
    const crew = (extra: string) =>
      `${extra}agents:\n  a:\n    role: R\n    goal: G\n    backstory: B\ntasks:\n  t:\n    description: D\n    expected_output: E\n    agent: a\n`;
    for (const [slug, text] of [
      ["short", crew("retention_days: 7\n")],
      ["plain", crew("")],
      ["broken", crew("retention_days: soon\n")],
    ] as const) {
      fs.mkdirSync(path.join(dir, slug));
      fs.writeFileSync(path.join(dir, slug, "crew.yaml"), text);
    }
    const { crewRetentions } = await import("@/lib/retention/sweeper");
    const { env } = await import("@/lib/config/env");
    // The environment is read once per process: CREWS_DIR is the folder set at the top.
    expect(env().CREWS_DIR).toBe(process.env.CREWS_DIR);
    fs.cpSync(dir, env().CREWS_DIR, { recursive: true });
    try {
      expect(Object.fromEntries(crewRetentions())).toEqual({
        short: 7,
        plain: undefined,
        broken: "unknown",
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
