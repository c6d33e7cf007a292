import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/types";
import { reviewAnalytics } from "@/lib/runs/review-analytics";
import { ORG, userToken } from "../support/principals";

// The review analytics' SQL on the real embedded database, fed the review events of issue 15's
// contract that today's engine does not write yet (claims, quorum votes with `effect`, timeouts,
// a deadline's own decision), beside old-style events without `effect`. Times are set, so the
// percentiles are exact here (the HTTP test only checks their order).
let tmp: string;
let db: Db;
const org = ORG;
const owner = randomUUID();
const asOwner = userToken(owner, "owner@example.com");

type Ev = [type: string, task: string, attempt: number, atSeconds: number, data?: object];

/** A run of `crew` created now, with its review events `at` seconds after a fixed start. */
async function run(
  crew: string,
  events: Ev[],
  { ownedBy = null as string | null, ageDays = 0 } = {},
) {
  const id = randomUUID();
  await db.query(
    `INSERT INTO executions (id, crew, status, owner_user_id, inputs, crew_snapshot, tasks, created_at)
     VALUES ($1, $2, 'completed', $3, '{}', '{}', '[]', now() - $4::int * interval '1 day')`,
    [id, crew, ownedBy, ageDays],
  );
  let seq = 0;
  for (const [type, task, attempt, at, data = {}] of events)
    await db.query(
      `INSERT INTO execution_events (execution_id, seq, type, task_id, attempt, data, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, timestamptz '2026-11-20T10:00:00Z' + $7::float * interval '1 second')`,
      [id, ++seq, type, task, attempt, JSON.stringify(data), at],
    );
  return id;
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-review-analytics-"));
  const { openFreshEmbeddedInMemory } = await import("../support/pglite-template");
  db = await openFreshEmbeddedInMemory();
  await db.query(
    "INSERT INTO users (id, email, role) VALUES ($1, 'owner@example.com', 'operator')",
    [owner],
  );

  // Old style (no effect): sent back, then approved; the first look came 10 s and 20 s after.
  await run("alpha", [
    ["review_requested", "draft", 1, 0],
    ["thought", "draft", 1, 5],
    ["review_submitted", "draft", 1, 10, { decision: "reject", reviewer: "ana@example.com" }],
    ["review_requested", "draft", 2, 30],
    ["review_submitted", "draft", 2, 50, { decision: "approve", reviewer: "ana@example.com" }],
  ]);
  // A quorum of two: Bo claims it (the first look, 4 s), votes, then Ana's vote approves it.
  await run("alpha", [
    ["review_requested", "draft", 1, 0, { required_approvals: 2 }],
    ["review_claimed", "draft", 1, 4, { by: "bo@example.com", until: "…" }],
    [
      "review_submitted",
      "draft",
      1,
      6,
      {
        decision: "approve",
        reviewer: "bo@example.com",
        effect: "approval_recorded",
        approvals: { count: 1, required: 2 },
      },
    ],
    [
      "review_submitted",
      "draft",
      1,
      8,
      {
        decision: "approve",
        reviewer: "ana@example.com",
        effect: "approved",
        approvals: { count: 2, required: 2 },
      },
    ],
  ]);
  // Nobody looked: the deadline approved it (the system's decision is not a person's).
  await run("beta", [
    ["review_requested", "t", 1, 0, { deadline_at: "…" }],
    ["review_timed_out", "t", 1, 3600, { action: "approve", deadline_at: "…" }],
    [
      "review_submitted",
      "t",
      1,
      3600,
      { decision: "approve", reviewer: "system", effect: "approved" },
    ],
  ]);
  // Another escalated, then sent back twice by Bo: his own run (a user token sees only this one).
  await run(
    "beta",
    [
      ["review_requested", "t", 1, 0],
      ["review_timed_out", "t", 1, 60, { action: "escalate", deadline_at: "…" }],
      ["review_escalated", "t", 1, 60, { by: "system", to: ["leads"] }],
      [
        "review_submitted",
        "t",
        1,
        100,
        { decision: "reject", reviewer: "bo@example.com", effect: "sent_back" },
      ],
      ["review_requested", "t", 2, 200],
      [
        "review_submitted",
        "t",
        2,
        230,
        { decision: "reject", reviewer: "bo@example.com", effect: "sent_back" },
      ],
      ["review_requested", "t", 3, 300],
    ],
    { ownedBy: owner },
  );
  // Outside a 14-day window.
  await run(
    "alpha",
    [
      ["review_requested", "draft", 1, 0],
      ["review_submitted", "draft", 1, 1, { decision: "reject", reviewer: "old@example.com" }],
    ],
    { ageDays: 30 },
  );
}, 60_000);

afterAll(async () => {
  await db?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe("reviewAnalytics on the embedded database", () => {
  it("totals: first looks, final decisions only, rounds per task, timeouts by action", async () => {
    const s = await reviewAnalytics({ db, principal: org, days: 14 });
    expect(s.totals).toEqual({
      // Waits of the answered requests: 10, 20, 4, 100, 30 s (two never had a person's look).
      requests: 7,
      answered: 5,
      first_review_p50_seconds: 20,
      first_review_p95_seconds: 86, // 30 + 0.8 × (100 − 30)
      // Ana's reject and approve, her quorum-completing approve, Bo's two send-backs; not Bo's
      // vote, not the deadline's approval.
      decisions: 5,
      approved: 2,
      sent_back: 3,
      approval_rate: 0.4,
      // alpha ×2 and Bo's task (the deadline-approved one had no person's decision).
      reviewed_tasks: 3,
      send_back_rounds_avg: 1,
      send_back_rounds_max: 2,
      timeouts: 2,
      timeouts_by_action: { approve: 1, escalate: 1 },
    });
  });

  it("by crew and by reviewer (a quorum vote counts for its reviewer)", async () => {
    const s = await reviewAnalytics({ db, principal: org, days: 14 });
    expect(
      s.by_crew.map((c) => [c.crew, c.requests, c.decisions, c.approval_rate, c.timeouts]),
    ).toEqual([
      ["beta", 4, 2, 0, 2],
      ["alpha", 3, 3, 0.6667, 0],
    ]);
    expect(s.by_crew[1]).toMatchObject({ send_back_rounds_avg: 0.5, first_review_p50_seconds: 10 });
    expect(s.by_reviewer).toEqual([
      // Ana: 10 s, 20 s (from the second request) and 8 s after the request she decided.
      {
        reviewer: "ana@example.com",
        decisions: 3,
        approvals: 2,
        sent_back: 1,
        approval_rate: 0.6667,
        decide_p50_seconds: 10,
      },
      {
        reviewer: "bo@example.com",
        decisions: 3,
        approvals: 1,
        sent_back: 2,
        approval_rate: 0.3333,
        decide_p50_seconds: 30,
      },
    ]);
  });

  it("a user token counts only its own runs; crew and window narrow it", async () => {
    const mine = await reviewAnalytics({ db, principal: asOwner, days: 14 });
    expect(mine.totals).toMatchObject({ requests: 3, decisions: 2, sent_back: 2, timeouts: 1 });
    expect(mine.by_reviewer.map((r) => r.reviewer)).toEqual(["bo@example.com"]);
    const alpha = await reviewAnalytics({ db, principal: org, days: 14, crew: "alpha" });
    expect(alpha).toMatchObject({ crew: "alpha", totals: { requests: 3, timeouts: 0 } });
    const wide = await reviewAnalytics({ db, principal: org, days: 90 });
    expect(wide.totals.requests).toBe(8);
    expect(wide.by_reviewer.map((r) => r.reviewer)).toContain("old@example.com");
  });
});
