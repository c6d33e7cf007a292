import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ExecutionEvent } from "@/lib/contract/status";
import type { Row } from "@/lib/db/types";
import { counter, scriptedDb } from "../support/scripted-db";

// The timelines' live feed (lib/events/live.ts): one LISTEN per process, one read of the event
// log per change however many follow an execution, each follower handed what is new to it once.
// The module keeps its state on globalThis (it outlives a reload in development): each test
// starts without it, on a module loaded afresh.
beforeEach(() => {
  delete globalThis.__crewdeckLive;
  delete globalThis.__crewdeckFeeds;
  vi.resetModules();
});
const live = () => import("@/lib/events/live");

const RUN = "11111111-1111-4111-8111-111111111111";
const OTHER = "22222222-2222-4222-8222-222222222222";

/** An event log per execution, read as listEvents reads it (`after`, then `limit + 1` rows). */
function eventLog() {
  const logs = new Map<string, Row[]>();
  const append = (id: string, count: number) => {
    const log = logs.get(id) ?? [];
    for (let i = 0; i < count; i++)
      log.push({
        seq: log.length + 1,
        type: "task_started",
        task_id: null,
        attempt: null,
        data: {},
        created_at: new Date(0),
      });
    logs.set(id, log);
  };
  const fake = scriptedDb((_sql, [id, after, limit]) =>
    (logs.get(String(id)) ?? [])
      .filter((e) => Number(e.seq) > Number(after))
      .slice(0, Number(limit)),
  );
  return { ...fake, append };
}

/** A follower: every sequence number it was handed, in order, and a wait for the n-th batch. */
function follower() {
  const seqs: number[] = [];
  const batches = counter();
  const errors = counter();
  return {
    seqs,
    batches,
    errors,
    onEvents: (events: ExecutionEvent[]) => {
      seqs.push(...events.map((e) => e.seq));
      batches.call();
    },
    onError: errors.call,
  };
}
/** The fake database answers without I/O: once the next turn comes, all it set going is done. */
const settle = () => new Promise(setImmediate);
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("following an execution's events", () => {
  it("hands what follows `after` at once, then each change's new events once, in order", async () => {
    const { followExecution } = await live();
    const log = eventLog();
    log.append(RUN, 3);
    const f = follower();
    await followExecution(log.db, RUN, 1, f.onEvents, f.onError);
    await settle();
    expect(f.seqs).toEqual([2, 3]);
    expect(log.listeners.map((l) => l.channel)).toEqual(["crewdeck_exec"]);

    log.append(RUN, 2);
    log.notify(RUN);
    await settle();
    expect(f.seqs).toEqual([2, 3, 4, 5]);
    expect(f.seqs[0]).toBe(2);
    // A read with nothing new hands nothing; another execution's change reads nothing.
    const reads = log.reads.length;
    log.notify(OTHER);
    log.notify(RUN);
    log.append(RUN, 1);
    log.notify(RUN);
    await settle();
    expect(f.seqs).toEqual([2, 3, 4, 5, 6]);
    expect(log.reads.slice(reads).every((r) => r.params[0] === RUN)).toBe(true);
    expect(f.errors.count()).toBe(0);
  });

  it("reads the log once per change for every follower, each getting its own part", async () => {
    const { followExecution } = await live();
    const log = eventLog();
    log.append(RUN, 4);
    const [a, b] = [follower(), follower()];
    await followExecution(log.db, RUN, 0, a.onEvents, a.onError);
    await settle();
    await followExecution(log.db, RUN, 2, b.onEvents, b.onError);
    await settle();
    expect(b.seqs).toEqual([3, 4]);
    expect(log.listeners).toHaveLength(1); // one LISTEN for the process

    const reads = log.reads.length;
    log.append(RUN, 1);
    log.notify(RUN);
    await settle();
    expect(log.reads.length - reads).toBe(1);
    // From the furthest-behind follower: both were at 4.
    expect(log.reads.at(-1)?.params).toEqual([RUN, 4, 501]);
    expect(a.seqs).toEqual([1, 2, 3, 4, 5]);
    expect(b.seqs).toEqual([3, 4, 5]);
  });

  it("reads a long log in pages of 500 until it has all of it", async () => {
    const { followExecution } = await live();
    const log = eventLog();
    log.append(RUN, 1201);
    const f = follower();
    await followExecution(log.db, RUN, 0, f.onEvents, f.onError);
    await settle();
    expect(f.seqs).toEqual(range(1, 1201));
    expect(log.reads.map((r) => r.params[1])).toEqual([0, 500, 1000]);
  });

  it("reads again after a read under way when a change came during it", async () => {
    const { followExecution } = await live();
    const log = eventLog();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The read after the first change finds what is there, then waits at the gate to answer.
    const slow = scriptedDb(async (sql, params) => {
      const gated = slow.reads.length === 2;
      const { rows } = await log.db.query(sql, params);
      if (gated) await gate;
      return rows;
    });
    log.append(RUN, 1);
    const f = follower();
    await followExecution(slow.db, RUN, 0, f.onEvents, f.onError);
    await settle(); // that read has finished
    log.append(RUN, 1);
    slow.notify(RUN); // this read waits at the gate
    log.append(RUN, 1);
    slow.notify(RUN); // and this change comes while it does
    release();
    await settle();
    expect(f.seqs).toEqual([1, 2, 3]);
    expect(f.batches.count()).toBe(3); // [1], [2], then [3]: never two reads at once
  });

  it("tells each follower of a failed read", async () => {
    const { followExecution } = await live();
    let fail = false;
    const fake = scriptedDb(() => {
      if (fail) throw new Error("connection lost");
      return [];
    });
    const [a, b] = [follower(), follower()];
    await followExecution(fake.db, RUN, 0, a.onEvents, a.onError);
    await followExecution(fake.db, RUN, 0, b.onEvents, b.onError);
    await settle();
    fail = true;
    fake.notify(RUN);
    await settle();
    expect([a.errors.count(), b.errors.count()]).toEqual([1, 1]);
    expect(a.seqs).toEqual([]);
  });

  it("re-reads every followed execution when notifications come back after a loss", async () => {
    const { followExecution } = await live();
    const log = eventLog();
    const [a, b] = [follower(), follower()];
    await followExecution(log.db, RUN, 0, a.onEvents, a.onError);
    await followExecution(log.db, OTHER, 0, b.onEvents, b.onError);
    log.append(RUN, 1);
    log.append(OTHER, 2);
    log.connection(false); // lost: nothing to read yet
    await settle();
    expect(a.batches.count() + b.batches.count()).toBe(0);
    log.connection(true);
    await settle();
    expect([a.seqs, b.seqs]).toEqual([[1], [1, 2]]);
  });

  it("stops reading for a follower that left, and for an execution no one follows", async () => {
    const { followExecution } = await live();
    const log = eventLog();
    const [a, b] = [follower(), follower()];
    const stopA = await followExecution(log.db, RUN, 0, a.onEvents, a.onError);
    const stopB = await followExecution(log.db, RUN, 0, b.onEvents, b.onError);
    stopA();
    await settle();
    log.append(RUN, 1);
    log.notify(RUN);
    await settle();
    expect(a.seqs).toEqual([]);
    const before = log.reads.length;
    stopB();
    log.notify(RUN); // before its LISTEN is let go: a feed no one follows reads nothing
    await settle();
    expect(log.reads.length).toBe(before);
    expect(globalThis.__crewdeckLive?.emitter.listenerCount(RUN)).toBe(0);
    const reads = log.reads.length;
    log.append(RUN, 1);
    log.notify(RUN);
    // Following again starts a new feed on the same LISTEN, from where it says.
    const c = follower();
    await followExecution(log.db, RUN, 1, c.onEvents, c.onError);
    await settle();
    expect(c.seqs).toEqual([2]);
    expect(b.seqs).toEqual([1]);
    expect(log.reads.length - reads).toBe(1);
    expect(log.listeners).toHaveLength(1);
  });

  it("keeps one LISTEN and one feed when the module is loaded again", async () => {
    const first = await live();
    const log = eventLog();
    const [a, b] = [follower(), follower()];
    await first.followExecution(log.db, RUN, 0, a.onEvents, a.onError);
    vi.resetModules();
    const second = await live();
    await second.followExecution(log.db, RUN, 0, b.onEvents, b.onError);
    const reads = log.reads.length;
    log.append(RUN, 1);
    log.notify(RUN);
    await settle();
    expect(log.listeners).toHaveLength(1);
    expect(log.reads.length - reads).toBe(1);
  });

  it("tries LISTEN again for the next follower after one failed", async () => {
    const { followExecution } = await live();
    const log = eventLog();
    log.append(RUN, 1);
    log.control.listenFails = true;
    const a = follower();
    await expect(followExecution(log.db, RUN, 0, a.onEvents, a.onError)).rejects.toThrow(
      "cannot listen",
    );
    log.control.listenFails = false;
    const b = follower();
    await followExecution(log.db, RUN, 0, b.onEvents, b.onError);
    await settle();
    expect(b.seqs).toEqual([1]);
    expect(log.listeners).toHaveLength(1);
  });
});
