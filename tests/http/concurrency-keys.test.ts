import { describe, expect, inject, it } from "vitest";
import { crewClient, expectProblem, type Json } from "../support/api";
import { TEST_CREW_TOKEN } from "../support/harness";

// A concurrency key: while a run with the key is active (here: waiting for review, which holds
// for as long as nobody decides, however fast the machine), a second kickoff with it is refused,
// waits its turn, or stops the first.
const baseUrl = inject("baseUrl");
const review = crewClient(baseUrl, "review", TEST_CREW_TOKEN);
const brief = crewClient(baseUrl, "brief", TEST_CREW_TOKEN);
const paused = (s: Json) => s.status === "pending_human_input";
const done = (s: Json) => ["completed", "error", "cancelled"].includes(s.status);
const unique = () => `issue-${Math.random().toString(36).slice(2)}`;

async function startHeld(key: string, policy?: string) {
  const r = await review.kickoff({
    inputs: { subject: "kelp" },
    concurrency: { key, ...(policy ? { policy } : {}) },
  });
  expect(r.status, r.text).toBe(200);
  return r.json.kickoff_id as string;
}

const approve = (id: string, task_id: string) =>
  review.resume({ execution_id: id, task_id, human_feedback: "ok", is_approve: true });

describe("concurrency keys", () => {
  it("reject: a second kickoff with an active key is a 409 naming the run; other keys go ahead", async () => {
    const key = unique();
    const first = await startHeld(key, "reject");
    await review.waitFor(first, paused);
    const second = await review.kickoff({
      inputs: { subject: "kelp" },
      concurrency: { key, policy: "reject" },
    });
    expectProblem(second, 409);
    expect(second.json.execution_id).toBe(first);
    expect(second.json.detail).toContain(key);
    // Another key, and the same key on another crew, are free.
    const other = await startHeld(unique(), "reject");
    const elsewhere = await brief.kickoff({
      inputs: { topic: "t", audience: "a" },
      concurrency: { key, policy: "reject" },
    });
    expect(elsewhere.status, elsewhere.text).toBe(200);
    // Once the first has ended, the key is free again.
    expect((await review.stop(first)).status).toBe(200);
    const third = await review.kickoff({
      inputs: { subject: "kelp" },
      concurrency: { key, policy: "reject" },
    });
    expect(third.status, third.text).toBe(200);
    await Promise.all([review.stop(other), review.stop(third.json.kickoff_id)]);
  });

  it("enqueue (the default): the second waits while the first is active, then runs", async () => {
    const key = unique();
    const first = await startHeld(key);
    await review.waitFor(first, paused);
    const second = await startHeld(key);
    // A run queued after it without a key is claimed and finishes: the workers had their chance
    // at the keyed one first (oldest first), and left it.
    const after = await brief.start({ topic: "t", audience: "a" });
    await brief.waitFor(after, done);
    expect((await review.status(second)).json.status).toBe("queued");
    const events = (await review.events(second)).json.events as Json[];
    expect(events[0].data.concurrency).toEqual({ key, policy: "enqueue" });
    // The first ends: the second goes.
    await approve(first, "draft");
    await review.waitFor(first, (s) => paused(s) && s.pending_human_input?.task_id === "polish");
    expect((await review.status(second)).json.status).toBe("queued");
    await approve(first, "polish");
    await review.waitFor(first, done);
    await review.waitFor(second, paused);
    await review.stop(second);
  });

  it("stop: the earlier runs with the key stop, saying why; the new one runs", async () => {
    const key = unique();
    const first = await startHeld(key, "enqueue");
    await review.waitFor(first, paused);
    const second = await startHeld(key, "enqueue"); // waits behind the first
    const third = await startHeld(key, "stop");
    const [a, b] = await Promise.all([review.status(first), review.status(second)]);
    for (const s of [a.json, b.json]) {
      expect(s.status).toBe("cancelled");
      expect(s.error).toContain(third);
    }
    await review.waitFor(third, paused);
    await review.stop(third);
  });

  it("two kickoffs at once with policy reject: exactly one starts", async () => {
    const key = unique();
    const replies = await Promise.all(
      Array.from({ length: 6 }, () =>
        review.kickoff({ inputs: { subject: "kelp" }, concurrency: { key, policy: "reject" } }),
      ),
    );
    const started = replies.filter((r) => r.status === 200);
    expect(started).toHaveLength(1);
    for (const r of replies.filter((x) => x.status !== 200)) expectProblem(r, 409);
    await review.stop(started[0]?.json.kickoff_id);
  });

  it("a malformed key or policy is a 400 naming the field", async () => {
    const bad = await review.kickoff({
      inputs: { subject: "kelp" },
      concurrency: { key: "k", policy: "later" },
    });
    expectProblem(bad, 400);
    expect(JSON.stringify(bad.json.errors)).toContain("concurrency.policy");
    const empty = await review.kickoff({ inputs: { subject: "kelp" }, concurrency: { key: " " } });
    expectProblem(empty, 400);
  });
});
