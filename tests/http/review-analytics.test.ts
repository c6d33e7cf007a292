import { beforeAll, describe, expect, inject, it } from "vitest";
import { call, crewClient, expectProblem, type Json } from "../support/api";
import { TEST_CREW_TOKEN, tokenCli } from "../support/harness";
import { addPerson } from "../support/people";
import { signIn } from "../support/session";

// Review analytics on the overview (issue 15, item 7): GET /api/runs/review-stats, from the runs'
// review events. The runs here belong to one person's token, so that token's figures are exact
// whatever else the suite runs; another person's token must not see them.
const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
const stamp = Date.now();
const CREW = "named-review";
let ownerToken: string;
let otherToken: string;
let ana: { email: string; cookie: string };
let bo: { email: string; cookie: string };

const stats = (auth: { token?: string; headers?: Record<string, string> }, query = "") =>
  call(baseUrl, "GET", `/api/runs/review-stats${query}`, auth);
const paused = (attempt: number) => (s: Json) =>
  s.status === "pending_human_input" &&
  s.pending_human_input?.task_id === "draft" &&
  s.pending_human_input.attempt === attempt;

beforeAll(async () => {
  // The CLI first (it blocks this process for a moment), then the HTTP calls.
  ownerToken = (await tokenCli(["create", "--user", `ra-owner-${stamp}@example.com`], serverEnv))
    .token as string;
  otherToken = (await tokenCli(["create", "--user", `ra-other-${stamp}@example.com`], serverEnv))
    .token as string;
  const reviewer = async (name: string) => {
    const p = await addPerson(baseUrl, {
      email: `ra-${name}-${stamp}@example.com`,
      role: "reviewer",
    });
    return { email: p.email, cookie: await signIn(baseUrl, p.email, p.password) };
  };
  ana = await reviewer("ana");
  bo = await reviewer("bo");
});

/** A reviewer's decision from the dashboard (their session), as the inbox sends it. */
async function decide(
  who: { cookie: string },
  id: string,
  approve: boolean,
  feedback = approve ? "Good." : "Shorter, please.",
) {
  const r = await call(baseUrl, "POST", `/api/crews/${CREW}/resume`, {
    headers: { cookie: who.cookie, origin: baseUrl },
    body: { execution_id: id, task_id: "draft", human_feedback: feedback, is_approve: approve },
  });
  expect(r.status, r.text).toBe(200);
}

describe("GET /api/runs/review-stats", () => {
  it("nothing reviewed yet: zero counts, null rates, no rows", async () => {
    const r = await stats({ token: ownerToken });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({
      window_days: 14,
      crew: null,
      totals: {
        requests: 0,
        decisions: 0,
        approval_rate: null,
        first_review_p50_seconds: null,
        send_back_rounds_avg: null,
        timeouts: 0,
      },
      by_crew: [],
      by_reviewer: [],
    });
  });

  it("counts a send-back then an approval, and an approval at once, by crew and by reviewer", async () => {
    const crew = crewClient(baseUrl, CREW, ownerToken);
    // One run: Ana sends the draft back once, then approves the second attempt.
    const first = await crew.start({ topic: `tides ${stamp}` });
    await crew.waitFor(first, paused(1));
    await decide(ana, first, false);
    await crew.waitFor(first, paused(2));
    await decide(ana, first, true);
    // Another: Bo approves the first attempt.
    const second = await crew.start({ topic: `reefs ${stamp}` });
    await crew.waitFor(second, paused(1));
    await decide(bo, second, true);
    for (const id of [first, second]) await crew.waitFor(id, (s: Json) => s.status === "completed");

    const r = await stats({ token: ownerToken });
    expect(r.status, r.text).toBe(200);
    const figures = {
      requests: 3,
      answered: 3,
      decisions: 3,
      approved: 2,
      sent_back: 1,
      approval_rate: 0.6667,
      reviewed_tasks: 2,
      send_back_rounds_avg: 0.5,
      send_back_rounds_max: 1,
      timeouts: 0,
      timeouts_by_action: {},
    };
    const t = r.json.totals;
    expect(t).toMatchObject(figures);
    expect(t.first_review_p50_seconds).toBeGreaterThanOrEqual(0);
    expect(t.first_review_p95_seconds).toBeGreaterThanOrEqual(t.first_review_p50_seconds);
    expect(r.json.by_crew).toEqual([{ crew: CREW, ...t }]);

    const [first_, second_] = r.json.by_reviewer as Json[];
    expect(r.json.by_reviewer).toHaveLength(2);
    expect(first_).toMatchObject({
      reviewer: ana.email,
      decisions: 2,
      approvals: 1,
      sent_back: 1,
      approval_rate: 0.5,
    });
    expect(second_).toMatchObject({
      reviewer: bo.email,
      decisions: 1,
      approvals: 1,
      sent_back: 0,
      approval_rate: 1,
    });
    for (const x of [first_, second_]) expect(x.decide_p50_seconds).toBeGreaterThanOrEqual(0);

    // Another person's token sees none of these runs, so none of their reviews.
    const other = await stats({ token: otherToken });
    expect(other.status, other.text).toBe(200);
    expect(other.json.totals).toMatchObject({ requests: 0, decisions: 0, reviewed_tasks: 0 });
    expect(other.json.by_reviewer).toEqual([]);

    // The organization sees every run: Ana and Bo reviewed only these (their e-mails are new).
    const org = await stats({ token: TEST_CREW_TOKEN }, `?crew=${CREW}&days=1`);
    expect(org.status, org.text).toBe(200);
    expect(org.json).toMatchObject({ window_days: 1, crew: CREW });
    const byName = (name: string) => org.json.by_reviewer.find((x: Json) => x.reviewer === name);
    expect(byName(ana.email)).toMatchObject({ decisions: 2, approvals: 1, sent_back: 1 });
    expect(byName(bo.email)).toMatchObject({ decisions: 1, approvals: 1, sent_back: 0 });
    expect(org.json.by_crew.map((c: Json) => c.crew)).toEqual([CREW]);
    expect(org.json.totals.requests).toBeGreaterThanOrEqual(3);
    // A crew with no runs has nothing.
    const none = await stats({ token: TEST_CREW_TOKEN }, "?crew=no-such-crew");
    expect(none.json.totals.requests).toBe(0);
    expect(none.json.by_crew).toEqual([]);
  });

  it("needs a caller and a valid window", async () => {
    expectProblem(await stats({}), 401);
    for (const q of ["?days=0", "?days=91", "?days=x", "?crew="])
      expectProblem(await stats({ token: TEST_CREW_TOKEN }, q), 400);
    // A person signed in to the dashboard reads it as the overview does.
    const r = await stats({ headers: { cookie: ana.cookie } });
    expect(r.status, r.text).toBe(200);
  });
});
