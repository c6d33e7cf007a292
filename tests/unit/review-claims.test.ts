import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import type { Db } from "@/lib/db/types";
import { AppError } from "@/lib/errors";
import type { ReviewAction } from "@/lib/reviews/claims";
import type { OpenReview } from "@/lib/run-model/review-types";
import type { ExecutionRow } from "@/lib/run-model/types";
import { embeddedDbForFile } from "../support/embedded-db";
import { queryAs } from "../support/rows";

// Who may claim, release, reassign and decide a review, on the real embedded database: the
// fixture crew `assigned-review` names ada@example.com and the team `legal` for its first task.
const FIXTURE_CREWS = path.resolve(import.meta.dirname, "../fixtures/crews");
let db: Db;
let claims: typeof import("@/lib/reviews/claims");
let resume: typeof import("@/lib/reviews/resume-execution");

const embedded = embeddedDbForFile("review-claims");

const person = (n: number, email: string, role: string, teams: string[] = []) => ({
  id: `cccccccc-0000-4000-8000-00000000000${n}`,
  email,
  role,
  teams,
});
const PEOPLE = {
  ada: person(1, "ada@example.com", "reviewer"),
  bob: person(2, "bob@example.com", "reviewer"),
  carol: person(3, "carol@example.com", "reviewer", ["legal"]),
  dan: person(4, "dan@example.com", "admin"),
};
const as = (p: (typeof PEOPLE)[keyof typeof PEOPLE]): Principal =>
  ({ kind: "session", userId: p.id, email: p.email, role: p.role }) as Principal;
const org: Principal = { kind: "org", tokenId: null };

beforeAll(async () => {
  db = embedded.db;
  claims = await import("@/lib/reviews/claims");
  resume = await import("@/lib/reviews/resume-execution");
  for (const p of Object.values(PEOPLE))
    await db.query("INSERT INTO users (id, email, role, teams) VALUES ($1, $2, $3, $4)", [
      p.id,
      p.email,
      p.role,
      p.teams,
    ]);
});

/** A run of `assigned-review` whose first task awaits review, as the engine leaves it. */
async function awaitingReview(): Promise<string> {
  const { loadCrews } = await import("@/lib/crew/load-crews");
  const { createExecution } = await import("@/lib/runs/create-execution");
  const { mutateExecution } = await import("@/lib/runs/execution-store");
  const { openReview, reviewColumns } = await import("@/lib/run-model/open-reviews");
  const crew = loadCrews(FIXTURE_CREWS).crews.get("assigned-review");
  if (!crew) throw new Error("fixture crew assigned-review missing");
  const id = await createExecution({
    db,
    crew,
    principal: org,
    request: { inputs: { subject: "rent" } },
  });
  await db.tx((q) => mutateExecution(q, { id }, () => ({ patch: { status: "running" } })));
  await db.tx((q) =>
    mutateExecution(q, { id }, (row) => {
      const tasks = row.tasks.map((t, i) =>
        i === 0 ? { ...t, status: "pending_human_input" as const, attempts: 1, output: "x" } : t,
      );
      const def = row.crew_snapshot.tasks[0];
      if (!def) throw new Error("no first task");
      return {
        patch: {
          status: "pending_human_input",
          tasks,
          ...reviewColumns([openReview(def, 1, "x", new Date())], tasks),
        },
      };
    }),
  );
  return id;
}

async function row(id: string) {
  const { rows } = await queryAs<ExecutionRow>(db, "SELECT * FROM executions WHERE id = $1", [id]);
  return rows[0] as ExecutionRow;
}
const reviewOf = async (id: string) => (await row(id)).open_reviews?.[0] as OpenReview;
async function eventTypes(id: string) {
  const { rows } = await queryAs<{ type: string; data: Record<string, unknown> }>(
    db,
    "SELECT type, data FROM execution_events WHERE execution_id = $1 ORDER BY seq",
    [id],
  );
  return rows;
}

const act = (id: string, principal: Principal, request: ReviewAction, taskId = "clause") =>
  claims.actOnReview({ db, crew: "assigned-review", id, taskId, principal, request });

async function refused(promise: Promise<unknown>, status: number) {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, `expected a ${status}`).toBeInstanceOf(AppError);
  expect((err as AppError).status).toBe(status);
}

const decide = (id: string, principal: Principal, is_approve = true) =>
  resume.resumeExecution({
    db,
    crew: "assigned-review",
    principal,
    request: { execution_id: id, task_id: "clause", human_feedback: "ok", is_approve },
  });

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
    await refused(act(id, as(PEOPLE.ada), { action: "claim" }, "summary"), 409);
    await refused(act(id, as(PEOPLE.ada), { action: "claim" }, "nope"), 404);
  });
});
