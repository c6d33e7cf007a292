import { beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import type { Db } from "@/lib/db/types";
import { AppError } from "@/lib/errors";
import { embeddedDbForFile } from "../support/embedded-db";
import { ORG, userToken } from "../support/principals";

// The runs table's list on the real embedded database: keyset pages in both directions, where
// they end, the capped total, and who sees which runs. Rows are written directly, one minute
// apart, so the order and the page edges are known.
let db: Db;
let list: typeof import("@/lib/runs/list-executions");

const embedded = embeddedDbForFile("list-executions");
const ADA = "aaaaaaaa-0000-4000-8000-000000000001";
const org = ORG;
const adaToken = userToken(ADA, "ada@example.com");

/** Run `n` of crew `crew`, created `n` minutes after 2026-03-01 00:00 UTC. */
const idOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

async function insert(n: number, crew: string, extra: { owner?: string; error?: string } = {}) {
  await db.query(
    `INSERT INTO executions (id, crew, status, owner_user_id, inputs, crew_snapshot, tasks, error, created_at)
     VALUES ($1, $2, 'completed', $3, '{}'::jsonb, '{}'::jsonb, '[]'::jsonb, $4,
             '2026-03-01T00:00:00Z'::timestamptz + make_interval(mins => $5))`,
    [idOf(n), crew, extra.owner ?? null, extra.error ?? null, n],
  );
}

beforeAll(async () => {
  db = embedded.db;
  list = await import("@/lib/runs/list-executions");
  await db.query("INSERT INTO users (id, email, role) VALUES ($1, 'ada@example.com', 'operator')", [
    ADA,
  ]);
  // Seven runs of crew "c" (two of them Ada's), one of crew "d" between them.
  for (let n = 1; n <= 7; n++) await insert(n, "c", n === 2 || n === 6 ? { owner: ADA } : {});
  await insert(8, "d", { error: "50% off_limits" });
});

function page(query: Record<string, unknown>, principal: Principal = org) {
  return list.listExecutions({
    db,
    principal,
    query: list.ListQuerySchema.parse(query),
    prices: {},
  });
}
const ids = (p: { runs: { id: string }[] }) => p.runs.map((r) => Number(r.id.slice(-12)));

describe("listing runs", () => {
  it("pages newest first by keyset, forward to the end and back again", async () => {
    const first = await page({ crew: "c", per_page: 3 });
    expect(ids(first)).toEqual([7, 6, 5]);
    expect(first).toMatchObject({ per_page: 3, total: 7, total_capped: false, prev_cursor: null });
    expect(first.next_cursor).toEqual(expect.any(String));

    const second = await page({ crew: "c", per_page: 3, cursor: first.next_cursor });
    expect(ids(second)).toEqual([4, 3, 2]);
    expect(second.prev_cursor).toEqual(expect.any(String));
    expect(second.next_cursor).toEqual(expect.any(String));

    const last = await page({ crew: "c", per_page: 3, cursor: second.next_cursor });
    expect(ids(last)).toEqual([1]);
    expect(last.next_cursor).toBeNull();

    // Back: the page before the last is the second one again, still newest first.
    const back = await page({ crew: "c", per_page: 3, cursor: last.prev_cursor });
    expect(ids(back)).toEqual([4, 3, 2]);
    expect(back.next_cursor).toEqual(expect.any(String));
    const front = await page({ crew: "c", per_page: 3, cursor: back.prev_cursor });
    expect(ids(front)).toEqual([7, 6, 5]);
    expect(front.prev_cursor).toBeNull(); // nothing newer than the newest
  });

  it("has no next page when the rows fill the page exactly", async () => {
    const all = await page({ crew: "c", per_page: 7 });
    expect(ids(all)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(all.next_cursor).toBeNull();
    expect(all.prev_cursor).toBeNull();
    const one = await page({ crew: "c", per_page: 6 });
    expect(ids(one)).toEqual([7, 6, 5, 4, 3, 2]);
    expect(one.next_cursor).toEqual(expect.any(String));
  });

  it("shows a user token only its owner's runs; an organization token all of them", async () => {
    expect(ids(await page({}, adaToken))).toEqual([6, 2]);
    expect(ids(await page({}))).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
    expect(ids(await page({ started_by: "me" }, adaToken))).toEqual([6, 2]);
    expect(ids(await page({ person: "ADA@example.com" }))).toEqual([6, 2]);
  });

  it("filters by dates, the `to` day included, and by text with LIKE's characters taken literally", async () => {
    expect((await page({ from: "2026-03-01", to: "2026-03-01" })).total).toBe(8);
    expect((await page({ crew: "c", to: "2026-02-28" })).total).toBe(0);
    expect((await page({ from: "2026-03-02" })).total).toBe(0);
    expect(ids(await page({ q: "50% off_" }))).toEqual([8]);
    expect(ids(await page({ q: "50_ off" }))).toEqual([]);
    // The start of a kickoff id finds it.
    expect(ids(await page({ q: idOf(3).slice(0, 8) })).length).toBe(8);
    expect(ids(await page({ q: idOf(3).toUpperCase() }))).toEqual([3]);
    // Ids are stored in lower case; a search typed in upper case finds them all the same.
    const lettered = "abcdef12-0000-4000-8000-00000000000f";
    await db.query(
      `INSERT INTO executions (id, crew, status, inputs, crew_snapshot, tasks, created_at)
       VALUES ($1, 'e', 'completed', '{}'::jsonb, '{}'::jsonb, '[]'::jsonb, '2026-03-01T12:00:00Z')`,
      [lettered],
    );
    try {
      for (const q of ["abcdef", "ABCDEF12-0000", lettered.toUpperCase()])
        expect((await page({ q })).runs.map((r) => r.id)).toEqual([lettered]);
    } finally {
      await db.query("DELETE FROM executions WHERE id = $1", [lettered]);
    }
  });

  it("refuses a date range backwards, `me` for an organization token and a cursor it did not make", async () => {
    const refused = async (query: Record<string, unknown>, status: number) => {
      const err = await page(query).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(status);
    };
    await refused({ from: "2026-03-02", to: "2026-03-01" }, 422);
    await refused({ started_by: "me" }, 422);
    await refused({ cursor: "not-a-cursor" }, 400);
    const forged = Buffer.from(JSON.stringify({ dir: "older", at: "soon", id: idOf(1) }));
    await refused({ cursor: forged.toString("base64url") }, 400);
    // The same day as both ends is a range.
    expect((await page({ from: "2026-03-01", to: "2026-03-01" })).total).toBe(8);
  });

  it("counts at most 10,000 matches, and says when there are more", async () => {
    await db.query(
      `INSERT INTO executions (id, crew, status, inputs, crew_snapshot, tasks, created_at)
       SELECT gen_random_uuid(), 'many', 'completed', '{}'::jsonb, '{}'::jsonb, '[]'::jsonb,
              '2026-01-01T00:00:00Z'::timestamptz + make_interval(secs => n)
         FROM generate_series(1, 10000) n`,
    );
    const exactly = await page({ crew: "many", per_page: 1 });
    expect(exactly).toMatchObject({ total: 10_000, total_capped: false });
    await db.query(
      `INSERT INTO executions (id, crew, status, inputs, crew_snapshot, tasks)
       VALUES (gen_random_uuid(), 'many', 'completed', '{}'::jsonb, '{}'::jsonb, '[]'::jsonb)`,
    );
    const over = await page({ crew: "many", per_page: 1 });
    expect(over).toMatchObject({ total: 10_000, total_capped: true });
  });
  it("filters by status, by where it ran and by who started it; rows carry what the table shows", async () => {
    const row = (n: number, crew: string, status: string, extra = "NULL, '{}'::jsonb, NULL") =>
      db.query(
        `INSERT INTO executions (id, crew, status, owner_user_id, inputs, meta, crew_snapshot, tasks,
           token_usage, review_wait_seconds, created_at)
         VALUES ($1, $2, $3, ${extra}, '{}'::jsonb, '[]'::jsonb,
           '{"input_tokens": 1, "output_tokens": 2, "total_tokens": 3}'::jsonb, 7,
           '2026-04-01T00:00:00Z'::timestamptz + make_interval(mins => $4))`,
        [idOf(n), crew, status, n],
      );
    await row(
      101,
      "f",
      "completed",
      `'${ADA}', '{"topic": "tides"}'::jsonb, '{"team": "x"}'::jsonb`,
    );
    await row(102, "f", "error");
    await row(103, "@far", "completed");
    expect(ids(await page({ crew: "f", status: "error" }))).toEqual([102]);
    expect(ids(await page({ crew: "f", started_by: "ADA@example.com " }))).toEqual([101]);
    // A run of this server's has no deployment; a remote deployment's runs are its `@name` crew.
    const april = { from: "2026-04-01", to: "2026-04-01" };
    expect(ids(await page({ ...april, deployment: "local" }))).toEqual([103, 102, 101]);
    expect(ids(await page({ ...april, deployment: "far" }))).toEqual([103]);
    const [ada, other] = (await page({ crew: "f" })).runs.slice().reverse();
    expect(ada).toMatchObject({
      inputs: { topic: "tides" },
      meta: { team: "x" },
      token_usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
      review_wait_seconds: 7,
    });
    expect(other?.meta).toEqual({});
  });
});
