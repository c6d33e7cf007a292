import { describe, expect, it } from "vitest";
import { listFilter } from "@/lib/runs/list-filter";
import { pageOf, pageStatement } from "@/lib/runs/list-page";
import { ListQuerySchema } from "@/lib/runs/list-query";
import { ORG, userToken } from "../support/principals";

// The runs list's decisions with no database: the filter's SQL and values, the page's keyset
// and limit, and which cursors a page gets.

const query = (q: Record<string, unknown> = {}) => ListQuerySchema.parse(q);
const ADA = userToken("aaaaaaaa-0000-4000-8000-000000000001", "ada@example.com");

describe("the runs list's filter", () => {
  it("numbers each value in order, a user's own runs first", () => {
    const f = listFilter(
      query({ crew: "c", status: "error", meta: ["team:growth"], person: "Ann@X.org" }),
      ADA,
    );
    expect(f.where).toEqual([
      "e.owner_user_id = $1",
      "e.crew = $2",
      "e.status = $3",
      "u.email = $4",
      "e.meta ->> $5::text = $6::text",
    ]);
    expect(f.params).toEqual([
      "aaaaaaaa-0000-4000-8000-000000000001",
      "c",
      "error",
      "ann@x.org",
      "team",
      "growth",
    ]);
  });
  it("reads `local` as no deployment, any other deployment as its crews' prefix", () => {
    expect(listFilter(query({ deployment: "local" }), ORG).where).toEqual([
      "e.deployment_id IS NULL",
    ]);
    expect(listFilter(query({ deployment: "prod" }), ORG).params).toEqual(["@prod"]);
  });
  it("searches an id's start too when q could be one, escaping LIKE's wildcards", () => {
    expect(listFilter(query({ q: "ab12" }), ORG).params).toEqual([
      "ab12%",
      "%ab12%",
      "%ab12%",
      "%ab12%",
    ]);
    const text = listFilter(query({ q: "50%_x" }), ORG);
    expect(text.params).toEqual(["%50\\%\\_x%", "%50\\%\\_x%", "%50\\%\\_x%"]);
    expect(text.where[0]).toMatch(
      /^\(e\.crew ILIKE \$1 OR left\(e\.inputs::text, 4096\) ILIKE \$2/,
    );
  });
  it("bounds the dates, and refuses from after to", () => {
    expect(listFilter(query({ from: "2026-01-01", to: "2026-01-02" }), ORG).where).toEqual([
      "e.created_at >= $1::date",
      "e.created_at < $2::date + 1",
    ]);
    expect(() => listFilter(query({ from: "2026-01-02", to: "2026-01-01" }), ORG)).toThrow(
      /is after to/,
    );
  });
  it("takes started_by=me as the caller, and refuses it for an organization token", () => {
    expect(listFilter(query({ started_by: "me" }), ADA).where).toEqual([
      "e.owner_user_id = $1",
      "e.owner_user_id = $2",
    ]);
    expect(() => listFilter(query({ started_by: "me" }), ORG)).toThrow(/needs a person/);
  });
});

describe("a page's statement", () => {
  const filter = { where: ["e.crew = $1"], params: ["c"] };
  it("reads one row more than a page, newest first, with no cursor", () => {
    const { sql, params } = pageStatement(filter, undefined, 25);
    expect(params).toEqual(["c", 26]);
    expect(sql).toContain("WHERE e.crew = $1\n");
    expect(sql).toContain("ORDER BY e.created_at DESC, e.id DESC\n        LIMIT $2");
  });
  it("reads on from a cursor's edge, upwards for newer rows", () => {
    const at = "2026-03-01 00:01:00+00";
    const id = "00000000-0000-4000-8000-000000000001";
    const older = pageStatement(filter, { dir: "older", at, id }, 10);
    expect(older.params).toEqual(["c", at, id, 11]);
    expect(older.sql).toContain("(e.created_at, e.id) < ($2::timestamptz, $3::uuid)");
    const newer = pageStatement({ where: [], params: [] }, { dir: "newer", at, id }, 10);
    expect(newer.sql).toContain("WHERE (e.created_at, e.id) > ($1::timestamptz, $2::uuid)");
    expect(newer.sql).toContain("ORDER BY e.created_at ASC, e.id ASC");
  });
});

describe("a page's cursors", () => {
  const rows = [3, 2, 1].map((n) => ({ id: `r${n}`, created_at: `t${n}` }));
  const decoded = (c: string | null) =>
    c && JSON.parse(Buffer.from(c, "base64url").toString("utf8"));
  it("the first page: older ones when there are more, no newer ones", () => {
    const page = pageOf(rows, 2, undefined);
    expect(page.runs.map((r) => r.id)).toEqual(["r3", "r2"]);
    expect(decoded(page.next_cursor)).toEqual({ dir: "older", at: "t2", id: "r2" });
    expect(page.prev_cursor).toBeNull();
    expect(pageOf(rows, 3, undefined).next_cursor).toBeNull();
  });
  it("reading newer rows: turned newest first, older ones known to exist", () => {
    const cursor = { dir: "newer" as const, at: "t0", id: "00000000-0000-4000-8000-000000000000" };
    const page = pageOf([...rows].reverse(), 3, cursor);
    expect(page.runs.map((r) => r.id)).toEqual(["r3", "r2", "r1"]);
    expect(decoded(page.next_cursor)).toEqual({ dir: "older", at: "t1", id: "r1" });
    expect(page.prev_cursor).toBeNull();
  });
});
