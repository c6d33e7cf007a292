import crypto from "node:crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import { embeddedDbForFile } from "../support/embedded-db";

// Saved views on a real (embedded) database: one person's named filters of the runs list.
// The modules are imported inside each test, after vi.resetModules: their row schema, id check
// and input schema are module-level code, which mutation testing credits only to a test that
// loads it.
const file = embeddedDbForFile("saved-views");
const store = () => import("@/lib/views/store");
const schema = () => import("@/lib/views/schema");

beforeEach(() => {
  vi.resetModules();
});

async function person() {
  const id = crypto.randomUUID();
  await file.db.query("INSERT INTO users (id, email) VALUES ($1, $2)", [id, `${id}@example.com`]);
  return id;
}

describe("who a saved view belongs to", () => {
  it("is the person behind a session or a user token, never an organization token", async () => {
    const { viewOwnerOf } = await import("@/lib/views/owner");
    const who = { userId: "u-1", email: "a@example.com", role: "viewer" } as const;
    expect(viewOwnerOf({ kind: "session", ...who })).toBe("u-1");
    expect(viewOwnerOf({ kind: "user", tokenId: "t-1", ...who })).toBe("u-1");
    const org: Principal = { kind: "org", tokenId: null };
    expect(() => viewOwnerOf(org)).toThrow(
      expect.objectContaining({
        status: 403,
        message: expect.stringMatching(/belong to a person/),
      }),
    );
  });
});

describe("a saved view's input", () => {
  it("trims the name and drops the query's leading '?', and only that one", async () => {
    const { SavedViewInputSchema } = await schema();
    expect(
      SavedViewInputSchema.parse({ name: "  failed  ", query: "?status=failed&q=why?" }),
    ).toEqual({ name: "failed", query: "status=failed&q=why?" });
    expect(SavedViewInputSchema.parse({ name: "q", query: "q=why?" }).query).toBe("q=why?");
    expect(SavedViewInputSchema.parse({ name: "all", query: "" })).toEqual({
      name: "all",
      query: "",
    });
  });

  it("refuses an empty or too long name and a too long query, saying which", async () => {
    const { SavedViewInputSchema, VIEW_NAME_MAX, VIEW_QUERY_MAX } = await schema();
    const message = (input: unknown) =>
      SavedViewInputSchema.safeParse(input).error?.issues.map((i) => i.message);
    expect(message({ name: "   ", query: "" })).toEqual(["name must not be empty"]);
    expect(message({ name: "x".repeat(VIEW_NAME_MAX), query: "q".repeat(VIEW_QUERY_MAX) })).toBe(
      undefined,
    );
    expect(message({ name: "x".repeat(VIEW_NAME_MAX + 1), query: "" })).toEqual([
      `name must be at most ${VIEW_NAME_MAX} characters`,
    ]);
    expect(message({ name: "a", query: "q".repeat(VIEW_QUERY_MAX + 1) })).toEqual([
      `query must be at most ${VIEW_QUERY_MAX} characters`,
    ]);
    expect(message({ name: 5, query: 6 })).toEqual([
      "name must be a string",
      "query must be a string",
    ]);
  });

  it("names its schemas for the API description, and a stored view keeps its fields", async () => {
    const { z } = await import("zod");
    const s = await schema();
    expect(z.globalRegistry.get(s.SavedViewSchema)?.id).toBe("SavedView");
    expect(z.globalRegistry.get(s.SavedViewsResponseSchema)?.id).toBe("SavedViews");
    expect(z.globalRegistry.get(s.SavedViewInputSchema)?.id).toBe("SavedViewInput");
    const view = {
      id: crypto.randomUUID(),
      name: "failed",
      query: "status=failed",
      created_at: new Date(0).toISOString(),
    };
    expect(s.SavedViewsResponseSchema.parse({ views: [view] })).toEqual({ views: [view] });
  });
});

describe("saving, listing and deleting views", () => {
  it("lists only the caller's views, by name whatever its case, with ISO times", async () => {
    const { saveView, listViews } = await store();
    const [me, other] = [await person(), await person()];
    for (const name of ["beta", "Alpha", "gamma"])
      await saveView({ db: file.db, userId: me, input: { name, query: `n=${name}` } });
    await saveView({ db: file.db, userId: other, input: { name: "aaa", query: "x" } });
    const views = await listViews({ db: file.db, userId: me });
    expect(views.map((v) => [v.name, v.query])).toEqual([
      ["Alpha", "n=Alpha"],
      ["beta", "n=beta"],
      ["gamma", "n=gamma"],
    ]);
    for (const v of views) {
      expect(v.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(v.created_at).toBe(new Date(v.created_at).toISOString());
    }
    expect(await listViews({ db: file.db, userId: crypto.randomUUID() })).toEqual([]);
  });

  it("saves a new name as a new view and the same name again as a change of its query", async () => {
    const { saveView, listViews } = await store();
    const me = await person();
    const first = await saveView({
      db: file.db,
      userId: me,
      input: { name: "mine", query: "a=1" },
    });
    expect(first.created).toBe(true);
    expect(first.view).toMatchObject({ name: "mine", query: "a=1" });
    const again = await saveView({
      db: file.db,
      userId: me,
      input: { name: "mine", query: "a=2" },
    });
    expect(again).toEqual({
      created: false,
      view: { ...first.view, query: "a=2", created_at: expect.any(String) },
    });
    expect(await listViews({ db: file.db, userId: me })).toEqual([again.view]);
  });

  it("refuses a new view past the cap, but still replaces one by name", async () => {
    const { saveView, listViews } = await store();
    const { VIEWS_PER_PERSON_MAX } = await schema();
    const me = await person();
    await file.db.query(
      `INSERT INTO saved_views (id, user_id, name, query)
       SELECT gen_random_uuid(), $1, 'v' || i, '' FROM generate_series(1, $2::int) i`,
      [me, VIEWS_PER_PERSON_MAX],
    );
    await expect(
      saveView({ db: file.db, userId: me, input: { name: "one more", query: "" } }),
    ).rejects.toMatchObject({ status: 409, message: expect.stringMatching(/delete one/) });
    const replaced = await saveView({ db: file.db, userId: me, input: { name: "v1", query: "z" } });
    expect(replaced).toMatchObject({ created: false, view: { name: "v1", query: "z" } });
    expect(await listViews({ db: file.db, userId: me })).toHaveLength(VIEWS_PER_PERSON_MAX);
  });

  it("deletes the caller's own view; another's, a missing one or a non-id is not found", async () => {
    const { saveView, listViews, deleteView } = await store();
    const [me, other] = [await person(), await person()];
    const { view } = await saveView({ db: file.db, userId: me, input: { name: "x", query: "" } });
    const notFound = { status: 404, message: expect.stringMatching(/no saved view/) };
    await expect(deleteView({ db: file.db, userId: other, id: view.id })).rejects.toMatchObject(
      notFound,
    );
    // Not an id: refused before the database, which would fail to read it as a uuid.
    for (const id of [`x${view.id}`, `${view.id}x`, "nope", view.id.replace(/-/g, "")])
      await expect(deleteView({ db: file.db, userId: me, id })).rejects.toMatchObject(notFound);
    await deleteView({ db: file.db, userId: me, id: view.id.toUpperCase() });
    expect(await listViews({ db: file.db, userId: me })).toEqual([]);
    await expect(deleteView({ db: file.db, userId: me, id: view.id })).rejects.toMatchObject(
      notFound,
    );
  });
});
