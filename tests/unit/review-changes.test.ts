import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import { counter, scriptedDb } from "../support/scripted-db";

// The inboxes' review watch (lib/events/review-changes.ts) over a scripted database: which runs
// it reads, when, and whom it tells. review-stream.test.ts runs it on the real embedded database.
// The watch lives on globalThis (it outlives a reload in development): each test starts without
// it, on a module loaded afresh.
beforeEach(() => {
  delete globalThis.__crewdeckReviewWatch;
  vi.resetModules();
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});
afterEach(() => {
  vi.useRealTimers();
});
const reviewChanges = () => import("@/lib/events/review-changes");

const ADA = "aaaaaaaa-0000-4000-8000-000000000001";
const BOB = "bbbbbbbb-0000-4000-8000-000000000002";
const run = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const token = (userId: string): Principal => ({
  kind: "user",
  tokenId: `t-${userId}`,
  userId,
  email: `${userId}@example.com`,
  role: "reviewer",
});
const signedIn: Principal = { kind: "session", userId: "s", email: "s@example.com", role: "admin" };
const org: Principal = { kind: "org", tokenId: null };

/** The runs as the database holds them: owner, and the digest of their open reviews (or none). */
function runs() {
  const rows = new Map<string, { owner: string | null; digest: string | null }>();
  const batches = counter();
  let failNext = false;
  const fake = scriptedDb((sql, params) => {
    const all = [...rows].map(([id, r]) => ({ id, ...r }));
    if (!sql.includes("ANY(")) return all.filter((r) => r.digest !== null);
    batches.call();
    if (failNext) {
      failNext = false;
      throw new Error("connection lost");
    }
    const ids = params[0];
    return all.filter((r) => Array.isArray(ids) && ids.includes(r.id));
  });
  return {
    ...fake,
    rows,
    batches,
    failNextBatch: () => {
      failNext = true;
    },
    batchIds: () => fake.reads.filter((r) => r.sql.includes("ANY(")).map((r) => r.params[0]),
    baselines: () => fake.reads.filter((r) => !r.sql.includes("ANY(")).length,
  };
}

type Inbox = ReturnType<typeof counter> & { stop: () => void };
/** An open inbox per name, each counting how often it was told. */
async function inboxes<K extends string>(db: ReturnType<typeof runs>, who: Record<K, Principal>) {
  const { watchOpenReviews } = await reviewChanges();
  const open = new Map<string, Inbox>();
  for (const [name, principal] of Object.entries<Principal>(who)) {
    const c = counter();
    open.set(name, { ...c, stop: await watchOpenReviews(db.db, principal, c.call) });
  }
  const box = (name: K) => {
    const inbox = open.get(name);
    if (!inbox) throw new Error(`no inbox ${name}`);
    return inbox;
  };
  box.counts = () => Object.fromEntries([...open].map(([k, v]) => [k, v.count()]));
  return box;
}
/** Lets a batch's read, answered, be acted on. */
const settle = () => new Promise(setImmediate);
/** A batch's wait (on the fake clock), then its read and whom it tells. */
async function batch() {
  await vi.advanceTimersByTimeAsync(100);
  await settle();
}

describe("the review watch", () => {
  it("tells only the inboxes whose callers may see a run whose reviews changed", async () => {
    const db = runs();
    const box = await inboxes(db, { ada: token(ADA), bob: token(BOB), all: signedIn, org });
    expect(db.listeners.map((l) => l.channel)).toEqual(["crewdeck_exec"]);

    db.rows.set(run(1), { owner: ADA, digest: "a1" });
    db.notify(run(1));
    await batch();
    expect(box.counts()).toEqual({ ada: 1, bob: 0, all: 1, org: 1 });

    // A run an organization token started is no one's: user tokens do not see it.
    db.rows.set(run(2), { owner: null, digest: "o1" });
    db.notify(run(2));
    await batch();
    expect(box.counts()).toEqual({ ada: 1, bob: 0, all: 2, org: 2 });

    // A write that leaves the reviews as they were tells no one.
    db.notify(run(1));
    await batch();
    expect(box.counts()).toEqual({ ada: 1, bob: 0, all: 2, org: 2 });
    // Its review answered: the run has none open any more; Ada still hears of it.
    db.rows.set(run(1), { owner: ADA, digest: null });
    db.notify(run(1));
    await batch();
    expect(box.counts()).toEqual({ ada: 2, bob: 0, all: 3, org: 3 });
    // And a run with none before or now tells no one either.
    db.rows.set(run(3), { owner: BOB, digest: null });
    db.notify(run(3));
    await batch();
    expect(box.counts()).toEqual({ ada: 2, bob: 0, all: 3, org: 3 });
  });

  it("knows from the first inbox's read which runs have reviews open, deleted or closed", async () => {
    const db = runs();
    db.rows.set(run(1), { owner: BOB, digest: "b1" });
    db.rows.set(run(2), { owner: ADA, digest: "a1" });
    db.rows.set(run(3), { owner: ADA, digest: null });
    const box = await inboxes(db, { ada: token(ADA), bob: token(BOB), all: signedIn });
    expect(db.baselines()).toBe(1); // the first inbox only
    // Bob's run is deleted: his inbox hears it, from the owner the watch saw before.
    db.rows.delete(run(1));
    db.notify(run(1));
    await batch();
    expect(box.counts()).toEqual({ ada: 0, bob: 1, all: 1 });
    // Ada's run, unchanged, tells no one; once its review closes, it does.
    db.notify(run(2));
    await batch();
    expect(box.counts()).toEqual({ ada: 0, bob: 1, all: 1 });
    db.rows.set(run(2), { owner: ADA, digest: null });
    db.notify(run(2));
    await batch();
    expect(box.counts()).toEqual({ ada: 1, bob: 1, all: 2 });
    // A run whose review opened while watched, then deleted: its owner hears of it.
    db.rows.set(run(4), { owner: BOB, digest: "b2" });
    db.notify(run(4));
    await batch();
    db.rows.delete(run(4));
    db.notify(run(4));
    await batch();
    expect(box.counts()).toEqual({ ada: 1, bob: 3, all: 4 });
  });

  it("reads the runs of a batch once, and only ids that are runs' ids", async () => {
    const db = runs();
    const box = await inboxes(db, { all: signedIn });
    db.rows.set(run(1), { owner: ADA, digest: "a1" });
    db.rows.set(run(2), { owner: BOB, digest: "b1" });
    for (const id of [run(1), `x${run(2)}`, `${run(2)}x`, "not-a-run", run(2), run(1)])
      db.notify(id);
    await batch();
    expect(db.batchIds()).toEqual([[run(1), run(2)]]);
    expect(box.counts()).toEqual({ all: 1 });
  });

  it("reads nothing while no inbox is open, nor after the last one closed", async () => {
    const db = runs();
    const box = await inboxes(db, { ada: token(ADA), all: signedIn });
    box("ada").stop();
    db.rows.set(run(1), { owner: ADA, digest: "a1" });
    db.notify(run(1));
    await batch();
    expect(box.counts()).toEqual({ ada: 0, all: 1 });
    // Closed while a batch waits: the batch reads nothing.
    db.notify(run(2));
    box("all").stop();
    await batch();
    db.notify(run(1));
    // A new inbox reads the runs afresh, then hears of the next change only.
    const again = await inboxes(db, { all: signedIn });
    expect(db.baselines()).toBe(2);
    db.rows.set(run(3), { owner: BOB, digest: "b1" });
    db.notify(run(3));
    await batch();
    expect(db.batchIds()).toEqual([[run(1)], [run(3)]]);
    expect(box.counts()).toEqual({ ada: 0, all: 1 });
    expect(again.counts()).toEqual({ all: 1 });
  });

  it("after a failed read, tells those who see every run, and reads those runs again next", async () => {
    const db = runs();
    const box = await inboxes(db, { ada: token(ADA), bob: token(BOB), all: signedIn, org });
    db.rows.set(run(1), { owner: ADA, digest: "a1" });
    db.failNextBatch();
    db.notify(run(1));
    await batch();
    expect(box.counts()).toEqual({ ada: 0, bob: 0, all: 1, org: 1 });
    db.rows.set(run(2), { owner: BOB, digest: "b1" });
    db.notify(run(2));
    await batch();
    expect(db.batchIds()[1]).toEqual([run(1), run(2)]);
    expect(box.counts()).toEqual({ ada: 1, bob: 1, all: 2, org: 2 });
  });

  it("back from a lost connection, reads the runs afresh and tells every inbox once", async () => {
    const db = runs();
    const box = await inboxes(db, { ada: token(ADA), all: signedIn });
    db.connection(false);
    db.rows.set(run(1), { owner: BOB, digest: "b1" });
    db.connection(true);
    await batch();
    expect(db.baselines()).toBe(2);
    expect(box.counts()).toEqual({ ada: 1, all: 1 });
    // What the fresh read found is known: closing Bob's review tells who may see it.
    db.rows.set(run(1), { owner: BOB, digest: null });
    db.notify(run(1));
    await batch();
    expect(box.counts()).toEqual({ ada: 1, all: 2 });
  });

  it("tries to listen again for the next inbox when listening failed", async () => {
    const { watchOpenReviews } = await reviewChanges();
    const db = runs();
    db.control.listenFails = true;
    await expect(watchOpenReviews(db.db, signedIn, () => {})).rejects.toThrow(/cannot listen/);
    db.control.listenFails = false;
    const told = counter();
    await watchOpenReviews(db.db, signedIn, told.call);
    db.rows.set(run(1), { owner: null, digest: "o1" });
    db.notify(run(1));
    await batch();
    expect(told.count()).toBe(1);
    expect(db.listeners).toHaveLength(1);
  });

  it("keeps one watch when the module is loaded again", async () => {
    const db = runs();
    const first = counter();
    await (await reviewChanges()).watchOpenReviews(db.db, signedIn, first.call);
    vi.resetModules();
    const second = counter();
    await (await reviewChanges()).watchOpenReviews(db.db, signedIn, second.call);
    expect([db.listeners.length, db.baselines()]).toEqual([1, 1]);
    db.rows.set(run(1), { owner: null, digest: "o1" });
    db.notify(run(1));
    await batch();
    expect([first.count(), second.count()]).toEqual([1, 1]);
    expect(db.batchIds()).toEqual([[run(1)]]);
  });
});
