import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/types";
import { listExecutions } from "@/lib/runs/list-executions";
import { ListQuerySchema } from "@/lib/runs/list-query";
import { DB_KINDS, openTestDb } from "../support/both-dbs";
import { ORG } from "../support/principals";

// The runs list's search reads the first 4 KB of a run's inputs (as JSON text) and of its
// error: a search then costs at most its 200 characters times 4 KB per run, whatever size the
// inputs are (up to 1 MiB). A word only past that is not found.
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

describe.each(DB_KINDS)("the runs list's search on the %s database", (kind) => {
  let db: Db;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, close } = await openTestDb(kind));
    const runs: [number, object, string | null][] = [
      [1, { topic: `needle ${"x".repeat(5_000)}` }, null],
      [2, { topic: `${"x".repeat(5_000)} needle` }, null],
      [3, {}, `haystack ${"y".repeat(5_000)}`],
      [4, {}, `${"y".repeat(5_000)} haystack`],
    ];
    for (const [n, inputs, error] of runs)
      await db.query(
        `INSERT INTO executions (id, crew, status, inputs, crew_snapshot, tasks, error)
         VALUES ($1, 'c', 'completed', $2::jsonb, '{}'::jsonb, '[]'::jsonb, $3)`,
        [id(n), JSON.stringify(inputs), error],
      );
  }, 60_000);
  afterAll(() => close());

  const search = async (q: string) =>
    (
      await listExecutions({ db, principal: ORG, query: ListQuerySchema.parse({ q }), prices: {} })
    ).runs.map((r) => r.id);

  it("finds text in the first 4 KB of the inputs, not past it", async () => {
    expect(await search("needle")).toEqual([id(1)]);
  });

  it("finds text in the first 4 KB of the error, not past it", async () => {
    expect(await search("haystack")).toEqual([id(3)]);
  });
});
