import { beforeAll, describe, expect, inject, it } from "vitest";
import { call, crewClient, expectProblem, type Json } from "../support/api";
import { TEST_CREW_TOKEN } from "../support/harness";
import { addPerson, adminHeaders } from "../support/people";
import { signIn } from "../support/session";

// A task's review block: who may decide, how many must approve, the reviewer's form, claims and
// reassignment, and several reviews open in one run.
const baseUrl = inject("baseUrl");

type Person = { email: string; headers: Record<string, string> };

async function person(email: string, role: string, teams?: string[]): Promise<Person> {
  const { id, password } = await addPerson(baseUrl, { email, role });
  if (teams) {
    const r = await call(baseUrl, "PATCH", `/api/users/${id}`, {
      headers: await adminHeaders(baseUrl),
      body: { teams },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.teams).toEqual(teams);
  }
  return { email, headers: { cookie: await signIn(baseUrl, email, password), origin: baseUrl } };
}

const resumeAs = (who: Person | "org", crew: string, body: Record<string, unknown>) =>
  call(baseUrl, "POST", `/api/crews/${crew}/resume`, {
    ...(who === "org" ? { token: TEST_CREW_TOKEN } : { headers: who.headers }),
    body: { human_feedback: "", ...body },
  });
const actAs = (who: Person | "org", crew: string, id: string, task: string, body: unknown) =>
  call(baseUrl, "POST", `/api/crews/${crew}/executions/${id}/reviews/${task}`, {
    ...(who === "org" ? { token: TEST_CREW_TOKEN } : { headers: who.headers }),
    body,
  });
const inbox = (who: Person, scope: string) =>
  call(baseUrl, "GET", `/api/reviews?scope=${scope}`, { headers: who.headers });

const awaiting =
  (task: string, attempt = 1) =>
  (s: Json) =>
    s.status === "pending_human_input" &&
    s.pending_human_inputs.some(
      (r: { task_id: string; attempt: number }) => r.task_id === task && r.attempt === attempt,
    );
const reviewOf = (s: Json, task: string) =>
  s.pending_human_inputs.find((r: { task_id: string }) => r.task_id === task);

let r1: Person;
let r2: Person;
let r3: Person;
let ada: Person;
let lee: Person;
let otto: Person;
let admin: Person;

beforeAll(async () => {
  [r1, r2, r3, ada, lee, otto] = await Promise.all([
    person("quorum-one@example.com", "reviewer"),
    person("quorum-two@example.com", "reviewer"),
    person("quorum-three@example.com", "reviewer"),
    person("ada@example.com", "reviewer"),
    person("lee@example.com", "reviewer", ["legal"]),
    person("otto@example.com", "operator"),
  ]);
  admin = { email: "admin@example.com", headers: await adminHeaders(baseUrl) };
});

describe("quorum and the reviewer's form", () => {
  it("needs 3 distinct reviewers; the form is required and checked; an edit is what is approved", async () => {
    const quorum = crewClient(baseUrl, "quorum-review", TEST_CREW_TOKEN);
    const id = await quorum.start({ subject: "dark mode" });
    let s = await quorum.waitFor(id, awaiting("draft"));
    expect(reviewOf(s, "draft")).toMatchObject({
      assignees: ["reviewer"],
      required_approvals: 3,
      approvals: [],
      response_schema: { required: ["rating"] },
    });
    const approve = (who: Person, extra: Record<string, unknown> = {}) =>
      resumeAs(who, "quorum-review", {
        execution_id: id,
        task_id: "draft",
        is_approve: true,
        review_response: { rating: 5, reason: "clear" },
        ...extra,
      });

    // The form: missing → 422 naming it; not matching → 422 saying what is wrong.
    const missing = await approve(r1, { review_response: undefined });
    expectProblem(missing, 422);
    expect(missing.json.detail).toMatch(/review_response/);
    const wrong = await approve(r1, { review_response: { rating: 9 } });
    expectProblem(wrong, 422);
    expect(wrong.json.detail).toMatch(/rating|<= 5/);
    // An operator's role may not review at all; the route refuses before the review is read.
    expectProblem(await approve(otto), 403);

    const first = await approve(r1);
    expect(first.status, first.text).toBe(200);
    expect(first.json).toMatchObject({
      status: "approval_recorded",
      approvals: { count: 1, required: 3 },
    });
    // The same person again counts once (a double click is answered, not counted).
    const twice = await approve(r1);
    expect(twice.status, twice.text).toBe(200);
    expect(twice.json.approvals).toEqual({ count: 1, required: 3 });

    // The second reviewer edits: the edit is what is now under review, and only their approval
    // counts (the first approved other text).
    const edit = await approve(r2, { edited_output: "Dark mode is here, for every page." });
    expect(edit.json).toMatchObject({ approvals: { count: 1, required: 3 } });
    s = (await quorum.status(id)).json;
    expect(s.status).toBe("pending_human_input");
    expect(reviewOf(s, "draft")).toMatchObject({
      output: "Dark mode is here, for every page.",
      approvals: [{ reviewer: r2.email }],
    });
    expect((await approve(r1)).json.approvals).toEqual({ count: 2, required: 3 });
    const last = await approve(r3);
    expect(last.json).toMatchObject({ status: "resumed", approvals: { count: 3, required: 3 } });

    s = await quorum.waitFor(id, (x) => x.status === "completed");
    expect(s.tasks[0].output).toBe("Dark mode is here, for every page.");
    const events = (await quorum.events(id)).json.events as Json[];
    const submitted = events.filter((e) => e.type === "review_submitted");
    expect(submitted.map((e) => [e.data.reviewer, e.data.effect])).toEqual([
      [r1.email, "approval_recorded"],
      [r2.email, "approval_recorded"],
      [r1.email, "approval_recorded"],
      [r3.email, "approved"],
    ]);
    expect(submitted.every((e) => e.data.response?.rating === 5)).toBe(true);
    // The task's output, which later tasks are given as its context (review-edit.test.ts reads
    // the next task's prompt), is the approved edit.
    expect(events.some((e) => e.type === "task_started" && e.task_id === "announce")).toBe(true);
  });

  it("one send-back sends it back, whatever approvals it had", async () => {
    const quorum = crewClient(baseUrl, "quorum-review", TEST_CREW_TOKEN);
    const id = await quorum.start({ subject: "exports" });
    await quorum.waitFor(id, awaiting("draft"));
    const body = { execution_id: id, task_id: "draft", review_response: { rating: 2 } };
    expect((await resumeAs(r1, "quorum-review", { ...body, is_approve: true })).status).toBe(200);
    const back = await resumeAs(r2, "quorum-review", {
      ...body,
      is_approve: false,
      human_feedback: "Say which formats.",
    });
    expect(back.json.status).toBe("retrying");
    const s = await quorum.waitFor(id, awaiting("draft", 2));
    expect(reviewOf(s, "draft").approvals).toEqual([]);
    await quorum.stop(id);
  });

  it("concurrent approvals from different people both count; the same review decided once", async () => {
    const quorum = crewClient(baseUrl, "quorum-review", TEST_CREW_TOKEN);
    const id = await quorum.start({ subject: "races" });
    await quorum.waitFor(id, awaiting("draft"));
    const body = {
      execution_id: id,
      task_id: "draft",
      is_approve: true,
      review_response: { rating: 4 },
    };
    // Three people at the same moment: the row lock orders them; all three count, once each.
    const answers = await Promise.all([r1, r2, r3].map((p) => resumeAs(p, "quorum-review", body)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.map((a) => a.json.status).sort()).toEqual([
      "approval_recorded",
      "approval_recorded",
      "resumed",
    ]);
    await quorum.waitFor(id, (s) => s.status === "completed");
    const submitted = (await quorum.events(id)).json.events.filter(
      (e: Json) => e.type === "review_submitted",
    );
    expect(submitted.map((e: Json) => e.data.approvals.count)).toEqual([1, 2, 3]);
  });
});

describe("assignees, claims and reassignment", () => {
  it("only assignees (by e-mail or team) and administrators decide; a claim holds others off", async () => {
    const assigned = crewClient(baseUrl, "assigned-review", TEST_CREW_TOKEN);
    const id = await assigned.start({ subject: "liability" });
    const s = await assigned.waitFor(id, awaiting("clause"));
    expect(reviewOf(s, "clause").assignees).toEqual(["ada@example.com", "legal"]);
    const decide = (who: Person | "org", is_approve = true) =>
      resumeAs(who, "assigned-review", { execution_id: id, task_id: "clause", is_approve });

    // A reviewer who is not assigned: 403, saying to whom it is.
    const stranger = await decide(r1);
    expectProblem(stranger, 403);
    expect(stranger.json.detail).toMatch(/ada@example.com, legal/);
    expectProblem(await actAs(r1, "assigned-review", id, "clause", { action: "claim" }), 403);

    // The inbox: ada is named (mine), lee holds the team (team), r1 sees it under all only.
    const adaInbox = (await inbox(ada, "mine")).json;
    expect(adaInbox.reviews.some((r: Json) => r.execution_id === id)).toBe(true);
    expect((await inbox(lee, "mine")).json.reviews.some((r: Json) => r.execution_id === id)).toBe(
      false,
    );
    expect((await inbox(lee, "team")).json.reviews.some((r: Json) => r.execution_id === id)).toBe(
      true,
    );
    expect((await inbox(r1, "mine")).json.reviews.some((r: Json) => r.execution_id === id)).toBe(
      false,
    );
    const all = (await inbox(r1, "all")).json;
    expect(all.reviews.some((r: Json) => r.execution_id === id)).toBe(true);
    expect(all.counts.all).toBeGreaterThanOrEqual(all.reviews.length > 0 ? 1 : 0);
    expectProblem(await inbox(ada, "everyone"), 400);

    // Ada claims it: lee sees who holds it and cannot decide or claim meanwhile.
    const claim = await actAs(ada, "assigned-review", id, "clause", { action: "claim" });
    expect(claim.status, claim.text).toBe(200);
    expect(claim.json).toMatchObject({ claimed_by: "ada@example.com" });
    expect(Date.parse(claim.json.claimed_until)).toBeGreaterThan(Date.now());
    const held = await decide(lee);
    expectProblem(held, 409);
    expect(held.json).toMatchObject({ claimed_by: "ada@example.com" });
    expectProblem(await actAs(lee, "assigned-review", id, "clause", { action: "claim" }), 409);
    expectProblem(await actAs(lee, "assigned-review", id, "clause", { action: "release" }), 403);
    // An organization token is no one: it cannot claim, and a claim holds against it too.
    expectProblem(await actAs("org", "assigned-review", id, "clause", { action: "claim" }), 422);
    const program = await decide("org");
    expectProblem(program, 409);
    expect(program.json).toMatchObject({ claimed_by: "ada@example.com" });
    expect(program.json.detail).toMatch(/release the claim first/);
    // Malformed actions: 400; an assignee who reaches no one: 422.
    expectProblem(await actAs(ada, "assigned-review", id, "clause", { action: "grab" }), 400);
    expectProblem(
      await actAs(ada, "assigned-review", id, "clause", {
        action: "reassign",
        assignees: ["nobody@example.com"],
      }),
      422,
    );

    // Released, then reassigned to lee alone: ada is no longer an assignee.
    expect(
      (await actAs(ada, "assigned-review", id, "clause", { action: "release" })).json.claimed_by,
    ).toBeNull();
    const moved = await actAs(ada, "assigned-review", id, "clause", {
      action: "reassign",
      assignees: ["Lee@Example.com"],
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.json.assignees).toEqual(["lee@example.com"]);
    expectProblem(await decide(ada), 403);
    expect((await inbox(lee, "mine")).json.reviews.some((r: Json) => r.execution_id === id)).toBe(
      true,
    );

    const done = await decide(lee);
    expect(done.status, done.text).toBe(200);
    await assigned.waitFor(id, (x) => x.status === "completed");
    const types = (await assigned.events(id)).json.events
      .map((e: Json) => e.type)
      .filter((t: string) => t.startsWith("review_"));
    expect(types).toEqual([
      "review_requested",
      "review_claimed",
      "review_released",
      "review_reassigned",
      "review_submitted",
    ]);
    // Decided: claiming it now is a 409 saying it is not awaiting review.
    expectProblem(await actAs(lee, "assigned-review", id, "clause", { action: "claim" }), 409);
  });

  it("an administrator and an organization token may decide any review", async () => {
    const assigned = crewClient(baseUrl, "assigned-review", TEST_CREW_TOKEN);
    const id = await assigned.start({ subject: "warranty" });
    await assigned.waitFor(id, awaiting("clause"));
    const byAdmin = await resumeAs(admin, "assigned-review", {
      execution_id: id,
      task_id: "clause",
      is_approve: true,
    });
    expect(byAdmin.status, byAdmin.text).toBe(200);
    const id2 = await assigned.start({ subject: "indemnity" });
    await assigned.waitFor(id2, awaiting("clause"));
    // Someone's claim: the program releases it first, on the record, then decides.
    const held = await actAs(admin, "assigned-review", id2, "clause", { action: "claim" });
    expect(held.status, held.text).toBe(200);
    const program = () =>
      resumeAs("org", "assigned-review", {
        execution_id: id2,
        task_id: "clause",
        is_approve: true,
      });
    expectProblem(await program(), 409);
    const released = await actAs("org", "assigned-review", id2, "clause", { action: "release" });
    expect(released.status, released.text).toBe(200);
    const byProgram = await program();
    expect(byProgram.status, byProgram.text).toBe(200);
    const log = (await assigned.events(id2)).json.events.filter((e: Json) =>
      e.type.startsWith("review_"),
    );
    expect(log.map((e: Json) => e.type)).toEqual([
      "review_requested",
      "review_claimed",
      "review_released",
      "review_submitted",
    ]);
  });
});

describe("several open reviews in one run", () => {
  it("parallel tasks each wait for review; each is resumed by task_id; the join waits for both", async () => {
    const parallel = crewClient(baseUrl, "parallel-review", TEST_CREW_TOKEN);
    const id = await parallel.start({ subject: "tides" });
    const s = await parallel.waitFor(
      id,
      (x) => x.status === "pending_human_input" && x.pending_human_inputs.length === 2,
    );
    expect(s.pending_human_inputs.map((r: Json) => r.task_id)).toEqual(["headline", "teaser"]);
    // Old clients read the first.
    expect(s.pending_human_input.task_id).toBe("headline");
    expect(s.in_progress).toEqual(["headline", "teaser"]);

    const decide = (task_id: string, is_approve: boolean, human_feedback = "") =>
      parallel.resume({ execution_id: id, task_id, is_approve, human_feedback });
    // The teaser first: the run still waits for the headline.
    const teaser = await decide("teaser", true);
    expect(teaser.json).toMatchObject({ status: "waiting" });
    let now = (await parallel.status(id)).json;
    expect(now.status).toBe("pending_human_input");
    expect(now.pending_human_inputs.map((r: Json) => r.task_id)).toEqual(["headline"]);
    expect(now.pending_human_input.task_id).toBe("headline");
    // The headline sent back: it runs again alone, and waits for review again.
    expect((await decide("headline", false, "Shorter.")).json.status).toBe("retrying");
    now = await parallel.waitFor(id, awaiting("headline", 2));
    expect(now.tasks.map((t: Json) => t.status)).toEqual([
      "pending_human_input",
      "completed",
      "pending",
    ]);
    expect((await decide("headline", true)).json.status).toBe("resumed");
    const end = await parallel.waitFor(id, (x) => x.status === "completed");
    expect(end.tasks.map((t: Json) => t.attempts)).toEqual([2, 1, 1]);
    // Two reviews open at once wait at the same time: their wait counts once.
    expect(end.timing.review_wait_seconds).toBeLessThanOrEqual(end.execution_time);
  });

  it("two reviews decided at the same moment: both apply, and the run resumes once", async () => {
    const parallel = crewClient(baseUrl, "parallel-review", TEST_CREW_TOKEN);
    const id = await parallel.start({ subject: "currents" });
    await parallel.waitFor(
      id,
      (x) => x.status === "pending_human_input" && x.pending_human_inputs.length === 2,
    );
    const answers = await Promise.all(
      ["headline", "teaser"].map((task_id) =>
        parallel.resume({ execution_id: id, task_id, is_approve: true, human_feedback: "" }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.map((a) => a.json.status).sort()).toEqual(["resumed", "waiting"]);
    await parallel.waitFor(id, (x) => x.status === "completed");
    const events = (await parallel.events(id)).json.events as Json[];
    expect(events.filter((e) => e.type === "execution_resumed")).toHaveLength(1);
    expect(events.filter((e) => e.type === "task_started" && e.task_id === "combine")).toHaveLength(
      1,
    );
  });
});
