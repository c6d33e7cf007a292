import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import type { Db } from "@/lib/db/types";
import { embeddedDbForFile } from "../support/embedded-db";
import { userToken } from "../support/principals";
import { addPeople, as, awaitingReview, PEOPLE } from "../support/review-run";

// What /api/reviews/stream tells each inbox (lib/events/review-changes.ts), on the real embedded
// database and its real notifications: only changes to reviews its caller may see, as GET
// /api/reviews shows them. A user token sees its owner's runs, a person signed in every run: Ada's
// token must learn nothing of Bob's reviews, not even when one changed.
let db: Db;
let changes: typeof import("@/lib/events/review-changes");
let failNextRead = false;

const embedded = embeddedDbForFile("review-stream");

beforeAll(async () => {
  // The real database, but the watch's read of a batch of runs fails when the test says so.
  const real = embedded.db;
  function query(sql: string, ...rest: unknown[]) {
    if (failNextRead && sql.includes("= ANY(")) {
      failNextRead = false;
      return Promise.reject(new Error("connection lost"));
    }
    return Reflect.apply(real.query, real, [sql, ...rest]);
  }
  db = { ...real, query };
  changes = await import("@/lib/events/review-changes");
  await addPeople(db);
});

/** An inbox open for `principal`: how many events it got, and a wait for the n-th. */
function inbox(principal: Principal) {
  let told = 0;
  const waiting: { n: number; resolve: () => void }[] = [];
  const onChange = () => {
    told++;
    for (const w of waiting.filter((w) => w.n <= told)) w.resolve();
  };
  return {
    principal,
    onChange,
    told: () => told,
    until: (n: number) =>
      new Promise<void>((resolve) => (told >= n ? resolve() : waiting.push({ n, resolve }))),
  };
}

const ada = inbox(userToken(PEOPLE.ada.id, PEOPLE.ada.email, "reviewer"));
const bob = inbox(userToken(PEOPLE.bob.id, PEOPLE.bob.email, "reviewer"));
const dan = inbox(as(PEOPLE.dan)); // signed in: sees every run
const stops: (() => void)[] = [];
afterAll(() => {
  for (const stop of stops) stop();
});

const runs = { ada: "", bob: "" };
const act = async (id: string, who: Principal, action: "claim" | "release") => {
  const { actOnReview } = await import("@/lib/reviews/claims");
  await actOnReview({
    db,
    crew: "assigned-review",
    id,
    taskId: "clause",
    principal: who,
    request: { action },
  });
};

describe("the review stream", () => {
  it("tells each inbox only of the reviews its caller may see", async () => {
    for (const w of [ada, bob, dan])
      stops.push(await changes.watchOpenReviews(db, w.principal, w.onChange));

    // Ada's run opens a review: her token and Dan hear of it, Bob's token does not.
    runs.ada = await awaitingReview(db, "assigned-review", { owner: as(PEOPLE.ada) });
    await Promise.all([ada.until(1), dan.until(1)]);
    // Bob's, likewise.
    runs.bob = await awaitingReview(db, "assigned-review", { owner: as(PEOPLE.bob) });
    await Promise.all([bob.until(1), dan.until(2)]);
    // A change to Ada's open review (Dan claims it).
    await act(runs.ada, as(PEOPLE.dan), "claim");
    await Promise.all([ada.until(2), dan.until(3)]);
    // A run an organization token started belongs to no one's token.
    await awaitingReview(db, "assigned-review");
    await dan.until(4);

    // Each wait above ended after the batch told every inbox it would: these are final.
    expect({ ada: ada.told(), bob: bob.told(), dan: dan.told() }).toEqual({
      ada: 2,
      bob: 1,
      dan: 4,
    });
  });

  it("a read that fails tells only the inboxes that see every run; the rest hear later", async () => {
    const before = { ada: ada.told(), bob: bob.told(), dan: dan.told() };
    // One write to Ada's run (Dan lets his claim go), whose batch's read fails.
    failNextRead = true;
    await act(runs.ada, as(PEOPLE.dan), "release");
    await dan.until(before.dan + 1); // told to re-read: it may see whatever changed
    expect(failNextRead).toBe(false);
    expect(ada.told()).toBe(before.ada);

    // The next batch reads Ada's run again, with Bob's: each hears of their own.
    await act(runs.bob, as(PEOPLE.dan), "claim");
    await Promise.all([
      ada.until(before.ada + 1),
      bob.until(before.bob + 1),
      dan.until(before.dan + 2),
    ]);
    expect({ ada: ada.told(), bob: bob.told(), dan: dan.told() }).toEqual({
      ada: before.ada + 1,
      bob: before.bob + 1,
      dan: before.dan + 2,
    });
  });
});
