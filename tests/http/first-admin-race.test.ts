import { afterAll, describe, expect, inject, it } from "vitest";
import { issueSetupCode } from "@/lib/auth/setup-code";
import { createFirstAdmin, listUsers } from "@/lib/auth/users";
import { migrate } from "@/lib/db/migrations";
import { openPostgres } from "@/lib/db/open";
import { queryable } from "@/lib/db/queryable";
import type { Db, Queryable } from "@/lib/db/types";
import { AppError } from "@/lib/errors";
import { freshPostgresDatabase, tempDir } from "../support/harness";
import { openFreshEmbedded } from "../support/pglite-template";
import { queryAs } from "../support/rows";

// createFirstAdmin against the real database engine, with the race forced rather than hoped for:
// every transaction, once it has counted the users, waits until all 8 have counted too — or until
// the ones that have not are blocked on the advisory lock (visible in pg_locks). Without the lock
// all 8 count zero and all insert; with it, one at a time counts and only the first inserts.
// (PGlite runs one transaction at a time, so there the wait is never needed.)
const N = 8;
let db: Db;
afterAll(async () => {
  await db?.close();
});

function forcedRace(inner: Db): Db {
  let counted = 0;
  const waitForOthers = async (q: Queryable) => {
    counted += 1;
    if (inner.kind !== "postgres") return;
    for (;;) {
      const { rows } = await queryAs<{ n: number }>(
        inner,
        "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
      );
      if (counted === N || counted + (rows[0]?.n ?? 0) >= N) return;
      await q.query("SELECT 1"); // yield; no sleep, the condition decides
    }
  };
  const wrap = (q: Queryable): Queryable =>
    queryable(async (sql, params) => {
      const res = await q.query(sql, params);
      if (/FROM users WHERE password_hash IS NOT NULL/.test(sql)) await waitForOthers(q);
      return res;
    });
  return { ...inner, query: inner.query.bind(inner), tx: (fn) => inner.tx((q) => fn(wrap(q))) };
}

describe("createFirstAdmin", () => {
  it("of 8 simultaneous calls with the right code, exactly one creates an administrator", async () => {
    const url = inject("db") === "postgres" ? await freshPostgresDatabase() : undefined;
    db = url ? await openPostgres(url) : await openFreshEmbedded(tempDir("first-admin"));
    await migrate(db);
    const code = await issueSetupCode(db);
    const raced = forcedRace(db);
    const results = await Promise.allSettled(
      Array.from({ length: N }, (_, i) =>
        createFirstAdmin(
          raced,
          { email: `race${i}@example.com`, password: `race password ${i}` },
          code,
        ),
      ),
    );
    const created = results.filter((r) => r.status === "fulfilled");
    const refused = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
    expect(created).toHaveLength(1);
    expect(refused.map((e) => e instanceof AppError && e.status)).toEqual(Array(N - 1).fill(409));
    expect((await listUsers(db)).filter((u) => u.has_password)).toHaveLength(1);
  });
});
