import crypto from "node:crypto";
import pg from "pg";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { call, expectProblem, type Json } from "../support/api";
import { TEST_CREW_TOKEN } from "../support/harness";
import { addPerson } from "../support/people";
import { queryAs } from "../support/rows";
import { signIn } from "../support/session";

// Saved views of the runs list belong to one person: each sees, replaces and deletes only their own.
const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
const tag = crypto.randomBytes(4).toString("hex");
type Headers = Record<string, string>;
let ada: Headers;
let bob: Headers;

const views = (headers: Headers) => ({
  list: () => call(baseUrl, "GET", "/api/views", { headers }),
  save: (body: unknown) => call(baseUrl, "POST", "/api/views", { headers, body }),
  remove: (id: string) => call(baseUrl, "DELETE", `/api/views/${id}`, { headers }),
});

beforeAll(async () => {
  const session = async (email: string) => {
    const p = await addPerson(baseUrl, { email, role: "viewer" });
    return { cookie: await signIn(baseUrl, p.email, p.password), origin: baseUrl };
  };
  ada = await session(`ada-${tag}@example.com`);
  bob = await session(`bob-${tag}@example.com`);
});

describe("saved views", () => {
  it("saves (201), lists by name, and replaces on the same name (200, same id)", async () => {
    const a = views(ada);
    const failed = await a.save({
      name: "Failed this week",
      query: "?status=failed&from=2026-11-16",
    });
    expect(failed.status, failed.text).toBe(201);
    expect(failed.json).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "Failed this week",
      query: "status=failed&from=2026-11-16",
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    expect((await a.save({ name: "awaiting", query: "status=pending_human_input" })).status).toBe(
      201,
    );
    const again = await a.save({ name: "Failed this week", query: "status=failed" });
    expect(again.status, again.text).toBe(200);
    expect(again.json).toMatchObject({ id: failed.json.id, query: "status=failed" });

    const list = await a.list();
    expect(list.status, list.text).toBe(200);
    expect(list.json.views.map((v: Json) => [v.name, v.query])).toEqual([
      ["awaiting", "status=pending_human_input"],
      ["Failed this week", "status=failed"],
    ]);
  });

  it("shows each person only their own, and the same name may exist for both", async () => {
    const b = views(bob);
    expect(
      (await b.save({ name: "Failed this week", query: "status=failed&crew=brief" })).status,
    ).toBe(201);
    expect((await b.list()).json.views.map((v: Json) => v.query)).toEqual([
      "status=failed&crew=brief",
    ]);
    expect((await views(ada).list()).json.views).toHaveLength(2);
  });

  it("deletes one's own (204); someone else's or an unknown id is a 404", async () => {
    const a = views(ada);
    const b = views(bob);
    const mine = (await a.list()).json.views[0].id as string;
    expectProblem(await b.remove(mine), 404);
    expect((await a.list()).json.views).toHaveLength(2);
    expectProblem(await b.remove(crypto.randomUUID()), 404);
    expectProblem(await b.remove("not-a-uuid"), 404);
    const gone = await a.remove(mine);
    expect(gone.status, gone.text).toBe(204);
    expect(gone.text).toBe("");
    expectProblem(await a.remove(mine), 404);
    expect((await a.list()).json.views).toHaveLength(1);
  });

  it.each([
    ["a name over 60 characters", { name: "x".repeat(61), query: "" }, 400, "name"],
    ["a blank name", { name: "   ", query: "" }, 400, "name"],
    ["a query over 2000 characters", { name: "long", query: "q=".padEnd(2001, "x") }, 400, "query"],
    ["a name that is not a string", { name: 5, query: "" }, 400, "name"],
    ["no name", { query: "status=failed" }, 422, "name"],
    ["no query", { name: "x" }, 422, "query"],
  ])("refuses %s", async (_label, body, status, field) => {
    const r = await views(ada).save(body);
    expectProblem(r, status);
    expect(r.json.errors).toEqual([expect.objectContaining({ path: field })]);
  });

  it("keeps the cap of 100 when saves race: each counts what the others committed", async () => {
    const p = await addPerson(baseUrl, { email: `cap-${tag}@example.com`, role: "viewer" });
    const v = views({ cookie: await signIn(baseUrl, p.email, p.password), origin: baseUrl });
    for (let i = 0; i < 98; i++)
      expect((await v.save({ name: `v${i}`, query: "" })).status).toBe(201);

    // On PostgreSQL the race is made certain: a transaction holds the person's row, so each
    // save's insert waits on its foreign-key check until all four are waiting at once. (Four
    // leave the server's pool of ten room for its worker and the sessions' own queries.)
    const holder = serverEnv.DATABASE_URL
      ? new pg.Client({ connectionString: serverEnv.DATABASE_URL })
      : null;
    if (holder) {
      await holder.connect();
      await holder.query("BEGIN");
      await holder.query("SELECT 1 FROM users WHERE id = $1 FOR UPDATE", [p.id]);
    }
    const saves = Array.from({ length: 4 }, (_, i) => v.save({ name: `race${i}`, query: "" }));
    if (holder) {
      // Watched from its own connection: inside the holder's transaction the view would be frozen.
      const watcher = new pg.Client({ connectionString: serverEnv.DATABASE_URL });
      await watcher.connect();
      for (;;) {
        const { rows } = await queryAs<{ n: number }>(
          watcher,
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND state = 'active' AND wait_event_type = 'Lock'
             AND query LIKE '%saved_views%'`,
        );
        if ((rows[0]?.n ?? 0) >= 4) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      await watcher.end();
      await holder.query("ROLLBACK");
      await holder.end();
    }
    const statuses = (await Promise.all(saves)).map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 409, 409]);
    expect((await v.list()).json.views).toHaveLength(100);
  });

  it("refuses malformed JSON with a 400", async () => {
    expectProblem(await views(ada).save('{"name": '), 400);
  });

  it("belongs to a person: an organization token is refused, no session is a 401", async () => {
    expectProblem(await call(baseUrl, "GET", "/api/views", { token: TEST_CREW_TOKEN }), 403);
    expectProblem(await call(baseUrl, "GET", "/api/views"), 401);
  });
});
