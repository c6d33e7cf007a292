import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { call, crewClient, type Json } from "../support/api";
import { TEST_CREW_TOKEN } from "../support/harness";
import { addPerson } from "../support/people";
import { signIn } from "../support/session";

// The inbox kept true: which reviews each person can act on now (the nav's badge), and the
// stream that tells an open inbox the moment a review changes.
const baseUrl = inject("baseUrl");

type Person = { email: string; headers: Record<string, string> };
async function person(email: string, role: string): Promise<Person> {
  const { password } = await addPerson(baseUrl, { email, role });
  return { email, headers: { cookie: await signIn(baseUrl, email, password), origin: baseUrl } };
}

const quorum = crewClient(baseUrl, "quorum-review", TEST_CREW_TOKEN);
const inbox = (who: Person, scope: string, limit?: number) =>
  call(
    baseUrl,
    "GET",
    `/api/reviews?scope=${scope}${limit === undefined ? "" : `&limit=${limit}`}`,
    {
      headers: who.headers,
    },
  );
const entry = async (who: Person, scope: string, id: string) =>
  (await inbox(who, scope)).json.reviews.find((r: Json) => r.execution_id === id);
const approve = (who: Person, id: string) =>
  call(baseUrl, "POST", "/api/crews/quorum-review/resume", {
    headers: who.headers,
    body: {
      execution_id: id,
      task_id: "draft",
      is_approve: true,
      human_feedback: "",
      review_response: { rating: 4 },
    },
  });
const waiting = (s: Json) =>
  s.status === "pending_human_input" &&
  s.pending_human_inputs.some((r: { task_id: string }) => r.task_id === "draft");

let one: Person;
let two: Person;
let three: Person;
let viewer: Person;
const started: string[] = [];

beforeAll(async () => {
  [one, two, three, viewer] = await Promise.all([
    person("live-one@example.com", "reviewer"),
    person("live-two@example.com", "reviewer"),
    person("live-three@example.com", "reviewer"),
    person("live-viewer@example.com", "viewer"),
  ]);
});
afterAll(async () => {
  await Promise.all(started.map((id) => quorum.stop(id)));
});

describe("what each person can act on", () => {
  it("a vote, a claim and a viewer's role each take a review off someone's list", async () => {
    const id = await quorum.start({ subject: "badges" });
    started.push(id);
    await quorum.waitFor(id, waiting);
    for (const p of [one, two, three]) expect((await entry(p, "all", id))?.actionable).toBe(true);
    expect((await entry(viewer, "all", id))?.actionable).toBe(false);

    // one votes (1 of 3): still open, but not one's to act on again.
    const vote = await approve(one, id);
    expect(vote.status, vote.text).toBe(200);
    expect(vote.json.status).toBe("approval_recorded");
    expect((await entry(one, "all", id))?.actionable).toBe(false);
    expect((await entry(two, "all", id))?.actionable).toBe(true);

    // two claims it: three may not act while the claim holds; two still may.
    const claim = await call(
      baseUrl,
      "POST",
      `/api/crews/quorum-review/executions/${id}/reviews/draft`,
      {
        headers: two.headers,
        body: { action: "claim" },
      },
    );
    expect(claim.status, claim.text).toBe(200);
    expect((await entry(three, "all", id))?.actionable).toBe(false);
    expect((await entry(two, "all", id))?.actionable).toBe(true);

    // The badge's question: counts only. A viewer can act on nothing.
    const counts = await inbox(viewer, "mine", 0);
    expect(counts.status, counts.text).toBe(200);
    expect(counts.json.reviews).toEqual([]);
    expect(counts.json.counts.actionable).toBe(0);
    const twos = await inbox(two, "mine", 0);
    expect(twos.json.reviews).toEqual([]);
    expect(twos.json.counts.actionable).toBeGreaterThanOrEqual(1);
    expect((await inbox(two, "mine", 501)).status).toBe(400);
  });
});

describe("GET /api/reviews/assignees", () => {
  it("offers the people who may review, the roles that may and the teams, with their reach", async () => {
    const r = await call(baseUrl, "GET", "/api/reviews/assignees", { headers: one.headers });
    expect(r.status, r.text).toBe(200);
    const emails = r.json.people.map((p: Json) => p.email);
    expect(emails).toEqual(expect.arrayContaining([one.email, two.email, three.email]));
    // A viewer may not review: not offered, and not allowed to ask.
    expect(emails).not.toContain(viewer.email);
    expect(r.json.roles.map((x: Json) => x.name)).toEqual(["reviewer", "admin"]);
    const reviewers = r.json.roles.find((x: Json) => x.name === "reviewer").reviewers;
    expect(reviewers).toBeGreaterThanOrEqual(3);
    const asViewer = await call(baseUrl, "GET", "/api/reviews/assignees", {
      headers: viewer.headers,
    });
    expect(asViewer.status).toBe(403);
  });
});

describe("GET /api/reviews/stream", () => {
  it("says `reviews` when a review opened before it was watched is decided, and when one opens", async () => {
    // Open before the stream: the inbox must still hear when it goes.
    const before = await quorum.start({ subject: "opened unwatched" });
    started.push(before);
    await quorum.waitFor(before, waiting);

    const controller = new AbortController();
    // A hang guard only: the events come as the writes commit.
    const guard = setTimeout(() => controller.abort(), 120_000);
    const res = await fetch(`${baseUrl}/api/reviews/stream`, {
      headers: one.headers,
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = res.body?.getReader();
    if (!reader) throw new Error("no body");
    const decoder = new TextDecoder();
    let text = "";
    const count = () => (text.match(/event: reviews\n/g) ?? []).length;
    const readUntil = async (n: number) => {
      while (count() < n) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended after: ${text}`);
        text += decoder.decode(value);
      }
    };
    try {
      const first = await reader.read();
      text += decoder.decode(first.value);
      expect(text).toMatch(/retry: 1000/);

      expect((await approve(one, before)).status).toBe(200);
      await readUntil(1); // the vote on the review opened unwatched
      expect((await entry(one, "all", before))?.approvals).toHaveLength(1);

      const id = await quorum.start({ subject: "live inbox" });
      started.push(id);
      await readUntil(count() + 1); // a review opened
      await quorum.waitFor(id, waiting);
    } finally {
      clearTimeout(guard);
      controller.abort();
    }
  });

  it("refuses a caller with no session or token", async () => {
    const res = await call(baseUrl, "GET", "/api/reviews/stream");
    expect(res.status).toBe(401);
  });
});
