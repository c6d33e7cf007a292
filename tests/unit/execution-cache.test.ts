import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/lib/db/types";
import { queryAs } from "../support/rows";

// The /status cache on a real embedded database: a committed change reaches it through NOTIFY,
// a read that raced with a change is not kept, concurrent misses share one query.
let db: Db;
let cache: typeof import("@/lib/runs/execution-cache");
let store: typeof import("@/lib/runs/execution-store");
const id = "11111111-1111-4111-8111-111111111111";

const read = () =>
  cache.cachedExecution(db, id, async () => {
    const { rows } = await queryAs<{ status: string; current_task: string | null }>(
      db,
      "SELECT status, current_task FROM executions WHERE id = $1",
      [id],
    );
    return rows[0];
  });

beforeAll(async () => {
  const { openFreshEmbeddedInMemory } = await import("../support/pglite-template");
  cache = await import("@/lib/runs/execution-cache");
  store = await import("@/lib/runs/execution-store");
  db = await openFreshEmbeddedInMemory();
  await db.query(
    `INSERT INTO executions (id, crew, status, inputs, crew_snapshot, tasks)
     VALUES ($1, 'c', 'queued', '{}'::jsonb, '{}'::jsonb, '[]'::jsonb)`,
    [id],
  );
});

afterAll(async () => {
  await db.close();
});

describe("execution cache", () => {
  it("serves repeated reads from memory until a change commits", async () => {
    expect(await read()).toEqual({ status: "queued", current_task: null });
    // Written behind the cache's back (no NOTIFY): still the cached value.
    await db.query("UPDATE executions SET current_task = 'sneaky' WHERE id = $1", [id]);
    expect((await read())?.current_task).toBeNull();
    // A real state change notifies: the next read sees the database.
    await db.tx((q) => store.mutateExecution(q, { id }, () => ({ patch: { status: "running" } })));
    await new Promise((r) => setTimeout(r, 10));
    expect(await read()).toEqual({ status: "running", current_task: "sneaky" });
  });

  it("does not keep a read that raced with a change", async () => {
    cache.invalidateExecution(id);
    let release: () => void = () => {};
    let started: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const loading = new Promise<void>((r) => {
      started = r;
    });
    const slow = cache.cachedExecution(db, id, async () => {
      started();
      await gate; // the read has left for the database…
      return { status: "stale" };
    });
    await loading;
    cache.invalidateExecution(id); // …when a change lands
    release();
    expect(await slow).toEqual({ status: "stale" });
    expect((await read())?.status).toBe("running");
  });

  it("concurrent misses share one query", async () => {
    cache.invalidateExecution(id);
    let loads = 0;
    const load = async () => {
      loads++;
      await new Promise((r) => setTimeout(r, 20));
      return { n: loads };
    };
    const results = await Promise.all(
      Array.from({ length: 20 }, () => cache.cachedExecution(db, id, load)),
    );
    expect(loads).toBe(1);
    expect(new Set(results.map((r) => r?.n))).toEqual(new Set([1]));
  });

  it("keeps no answer for a run not there yet, nor a failed read", async () => {
    const later = randomUUID();
    const readLater = () =>
      cache.cachedExecution(db, later, async () => {
        const { rows } = await queryAs<{ status: string }>(
          db,
          "SELECT status FROM executions WHERE id = $1",
          [later],
        );
        return rows[0];
      });
    expect(await readLater()).toBeUndefined();
    // Created since (a kickoff notifies the workers, not the cache): the next read finds it.
    await db.query(
      `INSERT INTO executions (id, crew, status, inputs, crew_snapshot, tasks)
       VALUES ($1, 'c', 'queued', '{}'::jsonb, '{}'::jsonb, '[]'::jsonb)`,
      [later],
    );
    expect(await readLater()).toEqual({ status: "queued" });

    const flaky = randomUUID();
    await expect(
      cache.cachedExecution(db, flaky, () => Promise.reject(new Error("connection reset"))),
    ).rejects.toThrow("connection reset");
    expect(await cache.cachedExecution(db, flaky, async () => ({ ok: true }))).toEqual({
      ok: true,
    });
  });

  it("reads again once an entry is a minute old, even with no change seen", async () => {
    const aged = randomUUID();
    let loads = 0;
    const load = async () => ({ n: ++loads });
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      expect(await cache.cachedExecution(db, aged, load)).toEqual({ n: 1 });
      vi.setSystemTime(Date.now() + 59_000);
      expect(await cache.cachedExecution(db, aged, load)).toEqual({ n: 1 });
      vi.setSystemTime(Date.now() + 2_000);
      expect(await cache.cachedExecution(db, aged, load)).toEqual({ n: 2 });
    } finally {
      vi.useRealTimers();
    }
  });

  it("holds at most 10,000 runs, letting the oldest go first", async () => {
    const ids = Array.from({ length: 10_001 }, () => randomUUID());
    const loads = new Map<string, number>();
    const load = (id: string) => async () => {
      loads.set(id, (loads.get(id) ?? 0) + 1);
      return { id };
    };
    for (const one of ids) await cache.cachedExecution(db, one, load(one));
    expect(globalThis.__crewdeckExecCache?.entries.size).toBe(10_000);
    const [oldest, second] = ids as [string, string];
    const newest = ids[ids.length - 1] as string;
    await cache.cachedExecution(db, newest, load(newest));
    expect(loads.get(newest)).toBe(1); // still held
    await cache.cachedExecution(db, oldest, load(oldest));
    expect(loads.get(oldest)).toBe(2); // let go for the newest, read again
    // Bringing the oldest back let the next-oldest go, not a newer one.
    await cache.cachedExecution(db, second, load(second));
    expect(loads.get(second)).toBe(2);
  });
});
