import crypto from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { call, expectProblem, type Json } from "../support/api";
import { TEST_CREW_TOKEN } from "../support/harness";
import { addPerson } from "../support/people";
import { signIn } from "../support/session";

// Saved views of the runs list belong to one person: each sees, replaces and deletes only their own.
const baseUrl = inject("baseUrl");
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

  it("refuses malformed JSON with a 400", async () => {
    expectProblem(await views(ada).save('{"name": '), 400);
  });

  it("belongs to a person: an organization token is refused, no session is a 401", async () => {
    expectProblem(await call(baseUrl, "GET", "/api/views", { token: TEST_CREW_TOKEN }), 403);
    expectProblem(await call(baseUrl, "GET", "/api/views"), 401);
  });
});
