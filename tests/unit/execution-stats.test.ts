import { beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import type { RunStats } from "@/lib/contract/runs";
import type { Db } from "@/lib/db/types";
import { DEFAULT_MODEL_PRICES } from "@/lib/run-model/pricing";
import { embeddedDbForFile } from "../support/embedded-db";
import { ORG, userToken } from "../support/principals";

// The overview's figures on the real embedded database: what needs attention now, and the last
// days by outcome, duration, review wait, tokens and cost. Rows are written directly, at known
// times relative to today (the query's window is counted from the database's current_date).
let db: Db;
let stats: typeof import("@/lib/runs/execution-stats");

const embedded = embeddedDbForFile("execution-stats");
const ADA = "aaaaaaaa-0000-4000-8000-000000000001";
const org = ORG;
const ada = userToken(ADA, "ada@example.com");

type Row = {
  status: string;
  /** Days before today it was created (0: today), at 01:00. */
  daysAgo: number;
  seconds?: number;
  waited?: number;
  owner?: string;
  tokens?: [number, number];
  model?: string;
};
let n = 0;
async function insert(r: Row) {
  n += 1;
  const id = `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
  const [input, output] = r.tokens ?? [0, 0];
  const tasks = r.model
    ? [
        {
          task_id: "t",
          models: [r.model],
          token_usage: { input_tokens: input, output_tokens: output },
        },
      ]
    : [];
  await db.query(
    `INSERT INTO executions (id, crew, status, owner_user_id, inputs, crew_snapshot, tasks,
       token_usage, review_wait_seconds, created_at, started_at, finished_at)
     VALUES ($1, 'c', $2, $3, '{}'::jsonb, '{}'::jsonb, $4::jsonb, $5::jsonb, $6,
       current_date - $7::int + interval '1 hour', current_date - $7::int + interval '1 hour',
       CASE WHEN $8::float IS NULL THEN NULL
            ELSE current_date - $7::int + interval '1 hour' + make_interval(secs => $8::float) END)`,
    [
      id,
      r.status,
      r.owner ?? null,
      JSON.stringify(tasks),
      JSON.stringify({ input_tokens: input, output_tokens: output, total_tokens: input + output }),
      r.waited ?? 0,
      r.daysAgo,
      r.seconds ?? null,
    ],
  );
}

const figures = (principal: Principal = org, days = 3): Promise<RunStats> =>
  stats.executionStats({ db, principal, days, prices: DEFAULT_MODEL_PRICES });

beforeAll(async () => {
  db = embedded.db;
  stats = await import("@/lib/runs/execution-stats");
  await db.query("INSERT INTO users (id, email, role) VALUES ($1, 'ada@example.com', 'operator')", [
    ADA,
  ]);
  // Today: three completed (10, 20 and 60 s; one waited 30 s for review), one failed, one
  // stopped, one running, one awaiting review, one queued (Ada's).
  await insert({
    status: "completed",
    daysAgo: 0,
    seconds: 10,
    tokens: [1_000_000, 0],
    model: "gpt-4o-mini",
  });
  await insert({ status: "completed", daysAgo: 0, seconds: 20, waited: 30 });
  await insert({ status: "completed", daysAgo: 0, seconds: 60, owner: ADA });
  await insert({ status: "error", daysAgo: 0, seconds: 5 });
  await insert({ status: "cancelled", daysAgo: 0, seconds: 5 });
  await insert({ status: "running", daysAgo: 0 });
  await insert({ status: "pending_human_input", daysAgo: 0 });
  await insert({ status: "queued", daysAgo: 0, owner: ADA });
  // Two days ago: one failed with tokens at another model's price. Five days ago: outside.
  await insert({
    status: "error",
    daysAgo: 2,
    seconds: 1,
    tokens: [0, 1_000_000],
    model: "gpt-4o",
    owner: ADA,
  });
  await insert({ status: "completed", daysAgo: 5, seconds: 99, tokens: [5, 5], model: "gpt-4o" });
});

describe("the overview's figures", () => {
  it("what needs attention now: runs awaiting review, and running or queued", async () => {
    const s = await figures();
    expect([s.awaiting_review, s.running]).toEqual([1, 2]);
  });

  it("each day of the window, oldest first, today's by outcome, duration and review wait", async () => {
    const s = await figures();
    expect(s.window_days).toBe(3);
    expect(s.days.map((d) => [d.completed, d.error, d.cancelled, d.other])).toEqual([
      [0, 1, 0, 0],
      [0, 0, 0, 0],
      [3, 1, 1, 3],
    ]);
    const today = s.days[2];
    expect(today).toMatchObject({ avg_seconds: 30, max_seconds: 60, p50_seconds: 20 });
    expect(today?.p95_seconds).toBeCloseTo(56, 6);
    expect(today?.review_wait_p50_seconds).toBe(30); // only runs that waited count
    expect(s.days[1]).toMatchObject({
      avg_seconds: null,
      review_wait_p50_seconds: null,
      cost_usd: 0,
    });
    expect(s.days.map((d) => d.day)).toEqual([...s.days.map((d) => d.day)].sort());
  });

  it("tokens and their cost by day and in all, at each task's model's price", async () => {
    const s = await figures();
    expect(s.days[2]).toMatchObject({ input_tokens: 1_000_000, output_tokens: 0 });
    expect(s.days[2]?.cost_usd).toBeCloseTo(0.15, 6); // gpt-4o-mini input
    expect(s.days[0]?.cost_usd).toBeCloseTo(10, 6); // gpt-4o output, two days ago
    expect(s.totals).toMatchObject({ input_tokens: 1_000_000, output_tokens: 1_000_000 });
    expect(s.totals.cost_usd).toBeCloseTo(10.15, 6);
  });

  it("totals over the window: runs, outcomes, the failure rate of finished runs, durations", async () => {
    const { totals } = await figures();
    expect(totals).toMatchObject({ runs: 9, completed: 3, failed: 2, stopped: 1 });
    expect(totals.failure_rate).toBe(Math.round((2 / 6) * 10_000) / 10_000);
    expect(totals.p50_seconds).toBe(20);
    expect(totals.p95_seconds).toBeCloseTo(56, 6);
    const wider = await figures(org, 7);
    expect(wider.totals).toMatchObject({ runs: 10, completed: 4 });
  });

  it("a person's own token sees only the runs they started", async () => {
    const s = await figures(ada);
    expect([s.awaiting_review, s.running]).toEqual([0, 1]);
    expect(s.totals).toMatchObject({ runs: 3, completed: 1, failed: 1, stopped: 0 });
    expect(s.totals.failure_rate).toBe(0.5);
    expect(s.totals.cost_usd).toBeCloseTo(10, 6);
  });

  it("an empty window: zeros, and no failure rate or durations", async () => {
    const s = await stats.executionStats({
      db,
      principal: userToken("bbbbbbbb-0000-4000-8000-000000000002", "nobody@example.com"),
      days: 1,
      prices: DEFAULT_MODEL_PRICES,
    });
    expect(s.days).toHaveLength(1);
    expect(s.totals).toEqual({
      runs: 0,
      completed: 0,
      failed: 0,
      stopped: 0,
      failure_rate: null,
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
      p50_seconds: null,
      p95_seconds: null,
    });
  });
});
