import { beforeAll, expect, it } from "vitest";
import { commitTogether, type Piece } from "@/lib/db/group-commit";
import { queryable } from "@/lib/db/queryable";
import type { Db } from "@/lib/db/types";
import { embeddedDbForFile } from "../support/embedded-db";
import { queryAs } from "../support/rows";

// Writes that each hold on their own, sent together, against the real embedded database. Which
// pieces share a statement is decided by the event loop, not by timing: those submitted in one
// turn go together at its end, and those submitted while a statement is under way, after it.
const embedded = embeddedDbForFile("group-commit");
let db: Db;

beforeAll(async () => {
  db = embedded.db;
  await db.query("CREATE TABLE gc_items (id int PRIMARY KEY, v text NOT NULL CHECK (v <> 'bad'))");
});

/** Inserts (id, v), applied only when `when` holds. */
const insert =
  (id: number, v: string, when = true): Piece =>
  (p, tag) => ({
    ctes: [
      `${tag}ins AS (INSERT INTO gc_items SELECT ${p(id)}::int, ${p(v)} WHERE ${when ? "true" : "false"} RETURNING id)`,
    ],
    reads: [],
    applied: `EXISTS (SELECT 1 FROM ${tag}ins)`,
  });

/** The database, keeping each statement it is sent (a fresh Db: a queue of its own). */
function counting() {
  const sent: string[] = [];
  const counted: Db = {
    ...db,
    ...queryable((sql, params) => {
      sent.push(sql);
      return db.query(sql, params);
    }),
  };
  return { db: counted, sent };
}

const ids = async () =>
  (await queryAs<{ id: number }>(db, "SELECT id FROM gc_items ORDER BY id")).rows.map((r) => r.id);

it("sends the pieces of one turn in one statement, each told whether it applied", async () => {
  const { db: counted, sent } = counting();
  const results = await Promise.all([
    commitTogether(counted, insert(1, "a")),
    commitTogether(counted, insert(2, "b")),
    commitTogether(counted, insert(3, "c", false)),
    commitTogether(counted, insert(4, "d")),
  ]);
  expect(results).toEqual([true, true, false, true]);
  expect(sent).toHaveLength(1);
  expect(sent[0]).toContain("w3_ins");
  expect(await ids()).toEqual([1, 2, 4]);
});

it("holds what comes while a statement is under way, and sends it together after", async () => {
  const { db: counted, sent } = counting();
  const first = commitTogether(counted, insert(5, "a"));
  await new Promise((r) => setImmediate(r)); // the first statement is sent
  expect(sent).toHaveLength(1);
  const later = [commitTogether(counted, insert(6, "b")), commitTogether(counted, insert(7, "c"))];
  expect(await Promise.all([first, ...later])).toEqual([true, true, true]);
  expect(sent).toHaveLength(2);
  expect(sent[1]).toContain("w1_ins");
  expect(await ids()).toEqual([1, 2, 4, 5, 6, 7]);
});

it("keeps one piece's refusal to itself: the statement is tried again piece by piece", async () => {
  const { db: counted, sent } = counting();
  const first = commitTogether(counted, insert(10, "x"));
  const refused = commitTogether(counted, insert(11, "bad")); // breaks the CHECK
  const after = commitTogether(counted, insert(12, "y"));
  await expect(first).resolves.toBe(true);
  await expect(refused).rejects.toMatchObject({ code: "23514" });
  await expect(after).resolves.toBe(true);
  expect(sent).toHaveLength(4); // the three refused together, then each alone
  expect(await ids()).toEqual([1, 2, 4, 5, 6, 7, 10, 12]);
});

it("rejects a piece that cannot be built, and sends the others without its parameters", async () => {
  const { db: counted } = counting();
  const broken: Piece = (p) => {
    p("left behind");
    throw new Error("cannot build");
  };
  const first = commitTogether(counted, insert(20, "x"));
  const bad = commitTogether(counted, broken);
  const next = commitTogether(counted, insert(21, "y"));
  await expect(first).resolves.toBe(true);
  await expect(bad).rejects.toThrow("cannot build");
  await expect(next).resolves.toBe(true);
  expect(await ids()).toEqual([1, 2, 4, 5, 6, 7, 10, 12, 20, 21]);
});

it.each([
  ["a socket closed", new Error("Connection terminated unexpectedly")],
  ["a broken pipe", Object.assign(new Error("write EPIPE"), { code: "EPIPE" })],
  ["the server going down", Object.assign(new Error("terminating connection"), { code: "57P01" })],
])(
  "gives %s to every piece of the statement, since none can tell whether it committed",
  async (_, error) => {
    let calls = 0;
    const lost: Db = {
      ...db,
      query: () => {
        calls++;
        return Promise.reject(error);
      },
    };
    const a = commitTogether(lost, insert(31, "y"));
    const b = commitTogether(lost, insert(32, "z"));
    await expect(a).rejects.toBe(error);
    await expect(b).rejects.toBe(error);
    expect(calls).toBe(1); // not tried again
  },
);

it("starts a new statement once one carries megabytes of text", async () => {
  const { db: counted, sent } = counting();
  const big = "x".repeat(2_500_000);
  const results = await Promise.all([
    commitTogether(counted, insert(40, big)),
    commitTogether(counted, insert(41, big)),
    commitTogether(counted, insert(42, "small")),
  ]);
  expect(results).toEqual([true, true, true]);
  expect(sent).toHaveLength(2); // 40 and 41 take it past 4 MB: 42 waits for the next
  expect(sent[0]).toContain("w1_ins");
  expect(sent[1]).not.toContain("w1_ins");
});

it("on PostgreSQL, cuts a herd into statements of 16 sent side by side, three at most", async () => {
  // The queue's rules for PostgreSQL, on the embedded database's real statements, whose answers
  // are held until the test lets them through.
  const sent: string[] = [];
  let release = () => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  const pg: Db = {
    ...db,
    kind: "postgres",
    ...queryable((sql, params) => {
      sent.push(sql);
      return held.then(() => db.query(sql, params));
    }),
  };
  const herd = Array.from({ length: 60 }, (_, i) => commitTogether(pg, insert(100 + i, "h")));
  await new Promise((r) => setImmediate(r)); // the end of the turn: statements go out
  // Three under way at once, 16 pieces each; the last 12 wait for one of them to end.
  expect(sent).toHaveLength(3);
  expect(sent.every((s) => s.includes("w15_ins") && !s.includes("w16_ins"))).toBe(true);
  release();
  expect(await Promise.all(herd)).toEqual(herd.map(() => true));
  expect(sent).toHaveLength(4);
  expect(sent[3]).toContain("w11_ins");
  expect(sent[3]).not.toContain("w12_ins");
  expect((await ids()).filter((id) => id >= 100)).toHaveLength(60);
});

it("embedded: tells this process's listeners of an applied piece before its writer goes on, without NOTIFY", async () => {
  const { db: counted, sent } = counting();
  const heard: string[] = [];
  await counted.listen("gc_channel", (payload) => heard.push(payload));
  const notifying =
    (id: number, when: boolean): Piece =>
    (p, tag) => ({
      ...insert(id, "n", when)(p, tag),
      notify: [{ channel: "gc_channel", payload: `row ${id}` }],
    });
  const applied = commitTogether(counted, notifying(200, true)).then((ok) => {
    heard.push(`resolved ${ok}`);
  });
  const refused = commitTogether(counted, notifying(201, false));
  await Promise.all([applied, refused]);
  expect(heard).toEqual(["row 200", "resolved true"]); // 201 did not apply: nothing said
  expect(sent.join("\n")).not.toContain("pg_notify");
});

it("PostgreSQL: an applied piece's notification is a NOTIFY in its statement, on its condition", async () => {
  const sent: string[] = [];
  const pg: Db = {
    ...db,
    kind: "postgres",
    notifyHere: undefined,
    ...queryable((sql, params) => {
      sent.push(sql);
      return db.query(sql, params);
    }),
  };
  const heard: string[] = [];
  await db.listen("gc_pg", (payload) => heard.push(payload));
  const piece: Piece = (p, tag) => ({
    ...insert(210, "n")(p, tag),
    notify: [{ channel: "gc_pg", payload: "row 210" }],
  });
  expect(await commitTogether(pg, piece)).toBe(true);
  expect(sent[0]).toMatch(/pg_notify\(\$\d+, \$\d+\) WHERE EXISTS \(SELECT 1 FROM w0_ins\)/);
  expect(heard).toEqual(["row 210"]); // delivered by the database's own NOTIFY
});
