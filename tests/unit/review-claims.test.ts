import { beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import type { Db } from "@/lib/db/types";
import type { ReviewAction } from "@/lib/reviews/claims";
import type { OpenReview } from "@/lib/run-model/review-types";
import { embeddedDbForFile } from "../support/embedded-db";
import {
  addPeople,
  as,
  awaitingReview as awaiting,
  eventsOf,
  org,
  PEOPLE,
  refused,
  rowOf,
} from "../support/review-run";

// Who may claim, release, reassign and decide a review, on the real embedded database: the
// fixture crew `assigned-review` names ada@example.com and the team `legal` for its first task.
let db: Db;
let claims: typeof import("@/lib/reviews/claims");
let resume: typeof import("@/lib/reviews/resume-execution");

const embedded = embeddedDbForFile("review-claims");

beforeAll(async () => {
  db = embedded.db;
  claims = await import("@/lib/reviews/claims");
  resume = await import("@/lib/reviews/resume-execution");
  await addPeople(db);
});

const awaitingReview = () => awaiting(db, "assigned-review");
const row = (id: string) => rowOf(db, id);
const reviewOf = async (id: string) => (await row(id)).open_reviews?.[0] as OpenReview;
const eventTypes = (id: string) => eventsOf(db, id);

const act = (id: string, principal: Principal, request: ReviewAction, taskId = "clause") =>
  claims.actOnReview({ db, crew: "assigned-review", id, taskId, principal, request });

const decide = (id: string, principal: Principal, is_approve = true) =>
  resume.resumeExecution({
    db,
    crew: "assigned-review",
    principal,
    request: { execution_id: id, task_id: "clause", human_feedback: "ok", is_approve },
  });

/** Moves the claim's end a second into the past, as if its time ran out. */
async function expireClaim(id: string) {
  const { mutateExecution } = await import("@/lib/runs/execution-store");
  const { reviewColumns } = await import("@/lib/run-model/open-reviews");
  await db.tx((q) =>
    mutateExecution(q, { id }, (r) => {
      const open = (r.open_reviews ?? []).map((o) => ({
        ...o,
        claim: o.claim ? { ...o.claim, until: new Date(Date.now() - 1000).toISOString() } : null,
      }));
      return { patch: reviewColumns(open, r.tasks) };
    }),
  );
}

describe("claiming a review", () => {
  it("only an assignee claims; while held, no one else claims or decides, organization tokens included", async () => {
    const id = await awaitingReview();
    await refused(act(id, as(PEOPLE.bob), { action: "claim" }), 403);
    await refused(act(id, org, { action: "claim" }), 422);
    const claimed = await act(id, as(PEOPLE.ada), { action: "claim" });
    expect(claimed?.claimed_by).toBe("ada@example.com");
    expect((await reviewOf(id)).claim?.user_id).toBe(PEOPLE.ada.id);

    await refused(act(id, as(PEOPLE.carol), { action: "claim" }), 409);
    await refused(decide(id, as(PEOPLE.carol)), 409);
    await refused(decide(id, org), 409);
    await refused(decide(id, as(PEOPLE.dan)), 409);
    // The holder claims again (extends it) and decides.
    await act(id, as(PEOPLE.ada), { action: "claim" });
    await decide(id, as(PEOPLE.ada));
    expect((await row(id)).tasks[0]?.status).toBe("completed");
  });

  it("only the holder or an administrator releases; releasing nothing records nothing", async () => {
    const id = await awaitingReview();
    await act(id, as(PEOPLE.carol), { action: "release" }); // nothing held: no event
    await act(id, as(PEOPLE.carol), { action: "claim" }); // a team member claims
    await refused(act(id, as(PEOPLE.ada), { action: "release" }), 403);
    await act(id, as(PEOPLE.dan), { action: "release" });
    expect((await reviewOf(id)).claim).toBeNull();
    const types = (await eventTypes(id)).map((e) => e.type);
    expect(types.filter((t) => t.startsWith("review_"))).toEqual([
      "review_claimed",
      "review_released",
    ]);
    // Now anyone assigned may decide.
    await decide(id, as(PEOPLE.ada), false);
    expect((await row(id)).tasks[0]?.status).toBe("pending");
  });

  it("a claim that ran out frees the review: the next claim logs its end first", async () => {
    const id = await awaitingReview();
    await act(id, as(PEOPLE.ada), { action: "claim" });
    await expireClaim(id);
    await act(id, as(PEOPLE.carol), { action: "release" }); // nothing held: nothing written
    await act(id, as(PEOPLE.carol), { action: "claim" });
    const events = (await eventTypes(id)).filter((e) => e.type.startsWith("review_"));
    expect(events.map((e) => [e.type, e.data.by, e.data.reason])).toEqual([
      ["review_claimed", "ada@example.com", undefined],
      ["review_released", "ada@example.com", "expired"],
      ["review_claimed", "carol@example.com", undefined],
    ]);
    // An expired claim holds no one back: the holder's release has nothing to end.
    expect((await reviewOf(id)).claim?.user_id).toBe(PEOPLE.carol.id);
  });

  it("reassigns only by an assignee, the holder or an administrator, and only to someone known", async () => {
    const id = await awaitingReview();
    await refused(
      act(id, as(PEOPLE.bob), { action: "reassign", assignees: ["bob@example.com"] }),
      403,
    );
    await refused(
      act(id, as(PEOPLE.ada), { action: "reassign", assignees: ["nobody@example.com"] }),
      422,
    );
    await refused(act(id, as(PEOPLE.ada), { action: "reassign", assignees: [" "] }), 422);
    await act(id, as(PEOPLE.carol), { action: "claim" });
    await act(id, as(PEOPLE.ada), { action: "reassign", assignees: ["Bob@Example.com"] });
    const review = await reviewOf(id);
    expect(review.assignees).toEqual(["bob@example.com"]);
    expect(review.claim).toBeNull(); // a reassignment ends the claim
    // Now Ada is no longer assigned; Bob is.
    await refused(decide(id, as(PEOPLE.ada)), 403);
    await decide(id, as(PEOPLE.bob));
  });

  it("a task not awaiting review is a conflict; an unknown task is not found", async () => {
    const id = await awaitingReview();
    const waiting = await refused(act(id, as(PEOPLE.ada), { action: "claim" }, "summary"), 409);
    expect(waiting.message).toMatch(/'summary' is not awaiting review/);
    const unknown = await refused(act(id, as(PEOPLE.ada), { action: "claim" }, "nope"), 404);
    expect(unknown.message).toMatch(/has no task 'nope'/);
  });
});

describe("what claims and reassignments record", () => {
  const reviewEvents = async (id: string) =>
    (await eventTypes(id)).filter((e) => e.type.startsWith("review_")).map((e) => e.data);

  it("an organization token releases and reassigns, to a team too; the log says who and what", async () => {
    const id = await awaitingReview();
    await act(id, as(PEOPLE.ada), { action: "claim" });
    await act(id, org, { action: "release" });
    await act(id, org, { action: "reassign", assignees: ["legal"] });
    expect((await reviewOf(id)).assignees).toEqual(["legal"]);
    const [, released, reassigned] = await reviewEvents(id);
    expect(released).toEqual({ by: "org-token:CREW_TOKEN", reason: "released" });
    expect(reassigned).toEqual({
      by: "org-token:CREW_TOKEN",
      from: ["ada@example.com", "legal"],
      to: ["legal"],
    });
  });

  it("a refused claim names who holds it and until when", async () => {
    const id = await awaitingReview();
    const held = await act(id, as(PEOPLE.ada), { action: "claim" });
    const err = await refused(act(id, as(PEOPLE.carol), { action: "claim" }), 409);
    expect(err.details).toEqual({
      claimed_by: "ada@example.com",
      claimed_until: held?.claimed_until,
    });
  });

  it("the holder reassigns after leaving the team it was assigned through", async () => {
    const id = await awaitingReview();
    await act(id, as(PEOPLE.carol), { action: "claim" });
    await db.query("UPDATE users SET teams = '{}' WHERE id = $1", [PEOPLE.carol.id]);
    try {
      await act(id, as(PEOPLE.carol), { action: "reassign", assignees: ["ada@example.com"] });
    } finally {
      await db.query("UPDATE users SET teams = $2 WHERE id = $1", [PEOPLE.carol.id, ["legal"]]);
    }
    expect((await reviewOf(id)).assignees).toEqual(["ada@example.com"]);
  });

  it("claiming again after one's own claim ran out logs no release", async () => {
    const id = await awaitingReview();
    await act(id, as(PEOPLE.ada), { action: "claim" });
    await expireClaim(id);
    await act(id, as(PEOPLE.ada), { action: "claim" });
    expect((await reviewEvents(id)).map((d) => d.reason ?? "claimed")).toEqual([
      "claimed",
      "claimed",
    ]);
  });

  it("claiming one of two open reviews leaves the other as it was", async () => {
    const id = await awaiting(db, "parallel-review", { open: ["headline", "teaser"] });
    await claims.actOnReview({
      db,
      crew: "parallel-review",
      id,
      taskId: "teaser",
      principal: as(PEOPLE.bob),
      request: { action: "claim" },
    });
    const open = (await row(id)).open_reviews;
    expect(open.map((r) => [r.task_id, r.claim?.by ?? null])).toEqual([
      ["headline", null],
      ["teaser", "bob@example.com"],
    ]);
  });

  it("a review kept only as pending_human_input (an older run) is not claimed", async () => {
    const id = await awaitingReview();
    const { mutateExecution } = await import("@/lib/runs/execution-store");
    await db.tx((q) => mutateExecution(q, { id }, () => ({ patch: { open_reviews: [] } })));
    await refused(act(id, as(PEOPLE.ada), { action: "claim" }), 409);
  });

  it("assignees are trimmed, blanks dropped; the refusal names each unknown one", async () => {
    const id = await awaitingReview();
    const reassign = (assignees: string[]) =>
      act(id, as(PEOPLE.dan), { action: "reassign", assignees });
    const none = await refused(reassign([" ", ""]), 422);
    expect(none.details).toEqual({ errors: [{ path: "assignees", message: "required" }] });
    const one = await refused(reassign(["x@example.com"]), 422);
    expect(one.message).toMatch(/x@example.com is not a person/);
    const two = await refused(reassign(["x@example.com", "nobody"]), 422);
    expect(two.message).toMatch(/x@example.com, nobody are not a person/);
    expect(two.details).toEqual({
      errors: [
        { path: "assignees", message: "unknown: x@example.com" },
        { path: "assignees", message: "unknown: nobody" },
      ],
    });
    await reassign(["", " Bob@example.com "]);
    expect((await reviewOf(id)).assignees).toEqual(["bob@example.com"]);
  });
});
