import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import type { Db } from "@/lib/db/types";
import { listOpenReviews } from "@/lib/reviews/list-reviews";
import { DB_KINDS, openTestDb } from "../support/both-dbs";
import { userToken } from "../support/principals";

// Every dashboard tab asks for the inbox's counts every 5 s (limit 0). A count reads what
// deciding who may act needs — the reviews' heads — never a run's inputs, tasks or the text
// under review; a listing reads the inputs as a preview (20 of them, 200 characters each).
// Both are shown by how much the database hands back with a run of 1 MiB of inputs waiting.
const MiB = 1024 * 1024;
const ada = randomUUID();
const asAda: Principal = {
  kind: "session",
  userId: ada,
  email: "ada@example.com",
  role: "reviewer",
};

const review = (task: string, at: string, assignees: string[]) => ({
  task_id: task,
  attempt: 1,
  output: `the draft of ${task}`,
  agent_output: `the draft of ${task}`,
  output_sha256: "0",
  requested_at: at,
  waiting_since: at,
  assignees,
  required_approvals: 1,
  approvals: [],
  claim: null,
  deadline_at: null,
  on_timeout: null,
  escalate_to: [],
  reminders_at: [],
});

/** `db`, counting the characters of every row it hands back. */
function metered(db: Db) {
  const meter = { chars: 0 };
  const query: Db["query"] = async (sql: string, params?: unknown[], schema?: never) => {
    const result = schema ? await db.query(sql, params ?? [], schema) : await db.query(sql, params);
    meter.chars += JSON.stringify(result.rows).length;
    return result;
  };
  return { db: { ...db, kind: db.kind, tx: db.tx.bind(db), query }, meter };
}

describe.each(DB_KINDS)("the review inbox on the %s database", (kind) => {
  let db: Db;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, close } = await openTestDb(kind));
    await db.query(
      "INSERT INTO users (id, email, role) VALUES ($1, 'ada@example.com', 'reviewer')",
      [ada],
    );
    const inputs = { topic: "a".repeat(MiB), n: 5, deep: { list: ["b".repeat(300)] } };
    const tasks = [
      { task_id: "draft", name: "Draft", output: "c".repeat(MiB) },
      { task_id: "check", name: "Check", output: null },
    ];
    await db.query(
      `INSERT INTO executions (id, crew, status, owner_user_id, inputs, crew_snapshot, tasks, open_reviews)
       VALUES ($1, 'c', 'pending_human_input', $2, $3::jsonb, '{}'::jsonb, $4::jsonb, $5::jsonb)`,
      [
        randomUUID(),
        ada,
        JSON.stringify(inputs),
        JSON.stringify(tasks),
        JSON.stringify([
          review("draft", "2026-11-01T10:00:00.000Z", []),
          review("check", "2026-11-01T11:00:00.000Z", ["someone@example.com"]),
          // Ada voted on this one: hers, but nothing for her to do.
          {
            ...review("vote", "2026-11-01T09:00:00.000Z", []),
            required_approvals: 2,
            approvals: [{ reviewer: "ada@example.com", at: "2026-11-01T09:30:00.000Z" }],
          },
        ]),
      ],
    );
    // A run paused before reviews were kept: its one review, open to anyone who may review.
    await db.query(
      `INSERT INTO executions (id, crew, status, inputs, crew_snapshot, tasks, pending_human_input)
       VALUES ($1, 'c', 'pending_human_input', '{}'::jsonb, '{}'::jsonb, '[]'::jsonb, $2::jsonb)`,
      [
        randomUUID(),
        JSON.stringify({
          task_id: "old",
          output: "an old draft",
          requested_at: "2026-10-01T00:00:00Z",
        }),
      ],
    );
  }, 60_000);
  afterAll(() => close());

  it("counts without reading the runs' inputs, tasks or outputs", async () => {
    const { db: read, meter } = metered(db);
    const page = await listOpenReviews({ db: read, principal: asAda, scope: "mine", limit: 0 });
    expect(page).toEqual({ reviews: [], counts: { mine: 3, team: 0, all: 4, actionable: 2 } });
    expect(meter.chars).toBeLessThan(4_096);
  });

  it("lists the inputs as a preview, the rest as before", async () => {
    const { db: read, meter } = metered(db);
    const page = await listOpenReviews({ db: read, principal: asAda, scope: "all" });
    expect(page.counts).toEqual({ mine: 3, team: 0, all: 4, actionable: 2 });
    expect(page.reviews.map((r) => [r.task_id, r.task_name, r.output, r.scope])).toEqual([
      ["check", "Check", "the draft of check", { mine: false, team: false }],
      ["draft", "Draft", "the draft of draft", { mine: true, team: false }],
      ["vote", "vote", "the draft of vote", { mine: true, team: false }],
      ["old", "old", "an old draft", { mine: true, team: false }],
    ]);
    expect(page.reviews[1]?.inputs).toEqual({
      topic: `${"a".repeat(200)}…`,
      n: 5,
      // As PostgreSQL writes JSON text: a space after each colon and comma.
      deep: `{"list": ["${"b".repeat(200 - 11)}…`,
    });
    expect(meter.chars).toBeLessThan(8_192);
  });

  it("gives a personal token its own runs' reviews only", async () => {
    const page = await listOpenReviews({
      db,
      principal: userToken(ada, "ada@example.com", "reviewer"),
      scope: "all",
    });
    expect(page.counts).toEqual({ mine: 2, team: 0, all: 3, actionable: 1 });
    expect(page.reviews.map((r) => r.task_id)).toEqual(["check", "draft", "vote"]);
  });
});
