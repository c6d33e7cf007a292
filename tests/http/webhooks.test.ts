import { afterAll, describe, expect, inject, it } from "vitest";
import { CrewWebhookSchema, StepWebhookSchema, TaskWebhookSchema } from "@/lib/contract/webhooks";
import { call, crewClient, expectProblem, type Json, until } from "../support/api";
import { TEST_CREW_TOKEN, tokenCli } from "../support/harness";
import { type Received, startReceiver } from "../support/receiver";

// Task, step and crew webhooks: signed, retried until delivered, in order per endpoint, never
// to an address the server must not call.
const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
const brief = crewClient(baseUrl, "brief", TEST_CREW_TOKEN);
const review = crewClient(baseUrl, "review", TEST_CREW_TOKEN);
const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

async function receiver(opts?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(opts);
  receivers.push(r);
  return r;
}

async function deliveriesOf(executionId: string): Promise<Json[]> {
  const r = await call(
    baseUrl,
    "GET",
    `/api/webhooks/deliveries?execution_id=${executionId}&limit=500`,
    { token: TEST_CREW_TOKEN },
  );
  expect(r.status, r.text).toBe(200);
  return r.json.deliveries;
}

const settled = (ds: Json[]) =>
  ds.length > 0 && ds.every((d) => d.status === "succeeded" || d.status === "failed");

describe("delivery", () => {
  it("sends signed step, task and crew webhooks with CrewAI's fields, steps in sequence order", async () => {
    const rx = await receiver();
    const r = await brief.kickoff({
      inputs: { topic: "Kites", audience: "kids" },
      meta: { ticket: "T-9" },
      stepWebhookUrl: rx.url("/step"),
      taskWebhookUrl: rx.url("/task"),
      crewWebhookUrl: rx.url("/crew"),
    });
    const id = r.json.kickoff_id;
    await brief.waitFor(id, (s) => s.status === "completed");
    const ds = await until("deliveries", () => deliveriesOf(id), settled);
    expect(ds.every((d) => d.status === "succeeded")).toBe(true);

    const got = rx.delivered();
    expect(got.every((g) => g.validSignature)).toBe(true);
    const byPath = (p: string) => got.filter((g) => g.path === p).map((g) => g.body);
    const steps = byPath("/step");
    const tasks = byPath("/task");
    const crews = byPath("/crew");
    for (const s of steps) StepWebhookSchema.parse(s);
    for (const t of tasks) TaskWebhookSchema.parse(t);
    for (const c of crews) CrewWebhookSchema.parse(c);

    const events = (await brief.events(id)).json.events as { seq: number; type: string }[];
    const stepSeqs = events
      .filter((e) => ["thought", "tool_call", "tool_result", "answer"].includes(e.type))
      .map((e) => e.seq);
    expect(steps.map((s) => s.sequence)).toEqual(stepSeqs); // all of them, in order
    expect(tasks.map((t) => [t.task_id, t.requires_review])).toEqual([
      ["research", false],
      ["write", false],
    ]);
    expect(tasks[0]).toMatchObject({
      description: "Research Kites",
      expected_output: "Findings about Kites",
      agent: "researcher",
      meta: { ticket: "T-9" },
    });
    expect(crews).toHaveLength(1);
    expect(crews[0]).toMatchObject({
      status: "completed",
      kickoff_id: id,
      execution_id: id,
      meta: { ticket: "T-9" },
    });
    expect(crews[0].result).toBe((await brief.status(id)).json.result);
    expect(steps.find((s) => s.type === "tool_call")).toMatchObject({
      tool: "word_count",
      tool_input: { text: expect.any(String) },
    });
  });

  it("a receiver that is down at first gets every event exactly once (by webhook-id) when it comes back", async () => {
    const rx = await receiver({ down: true });
    const id = (
      await brief.kickoff({
        inputs: { topic: "a", audience: "b" },
        stepWebhookUrl: rx.url("/s"),
        taskWebhookUrl: rx.url("/t"),
        crewWebhookUrl: rx.url("/c"),
      })
    ).json.kickoff_id;
    await brief.waitFor(id, (s) => s.status === "completed");
    await until(
      "failed first attempts",
      () => deliveriesOf(id),
      (ds) => ds.some((d) => d.attempts >= 2),
    );
    await rx.up();
    const ds = await until(
      "all delivered",
      () => deliveriesOf(id),
      (d) => settled(d),
    );
    expect(ds.map((d) => d.status).every((s) => s === "succeeded")).toBe(true);
    const got = rx.delivered();
    expect(new Set(got.map((g) => g.id))).toEqual(new Set(ds.map((d) => d.id)));
    expect(got.every((g) => g.validSignature)).toBe(true);
    const events = (await brief.events(id)).json.events as { seq: number; type: string }[];
    const owed = events.filter((e) =>
      [
        "thought",
        "tool_call",
        "tool_result",
        "answer",
        "task_completed",
        "execution_completed",
      ].includes(e.type),
    );
    expect(got.map((g) => g.body.sequence).sort((a, b) => a - b)).toEqual(owed.map((e) => e.seq));
    // webhook-id is the idempotency key: the same across a delivery's attempts.
    const retried = ds.find((d) => d.attempts_log.length > 1);
    expect(retried.attempts_log[0].error).toBeTruthy();
  });

  it("retries on 5xx, counts a redirect as a failure without following it, and honours Retry-After", async () => {
    const target = await receiver();
    let busyAnswered = 0;
    const rx = await receiver({
      behaviour: ({ path, nth }) => {
        if (path === "/flaky") return { status: nth < 3 ? 500 : 204 };
        if (path === "/redirect")
          return { status: 302, headers: { location: target.url("/landed") } };
        if (path === "/busy")
          return { status: busyAnswered++ === 0 ? 429 : 200, headers: { "retry-after": "1" } };
        return { status: 200 };
      },
    });
    const clock = crewClient(baseUrl, "no-inputs", TEST_CREW_TOKEN);
    const id = (
      await clock.kickoff({
        taskWebhookUrl: rx.url("/redirect"),
        crewWebhookUrl: rx.url("/flaky"),
        stepWebhookUrl: rx.url("/busy"),
      })
    ).json.kickoff_id;
    await clock.waitFor(id, (s) => s.status === "completed");
    const ds = await until(
      "settled",
      () => deliveriesOf(id),
      (d) => settled(d) && d.some((x) => x.kind === "crew"),
    );
    const crew = ds.find((d) => d.kind === "crew");
    expect(crew).toMatchObject({ status: "succeeded", attempts: 3 });
    expect(crew.attempts_log.map((a: Json) => a.status_code)).toEqual([500, 500, 204]);
    const task = ds.find((d) => d.kind === "task");
    expect(task).toMatchObject({ status: "failed", last_status_code: 302, attempts: 5 });
    expect(target.received.filter((r) => r.path === "/landed")).toHaveLength(0);
    const steps = ds.filter((d) => d.kind === "step").sort((a, b) => a.event_seq - b.event_seq);
    expect(steps.every((d) => d.status === "succeeded")).toBe(true);
    const [first, second] = steps[0].attempts_log;
    expect(first.status_code).toBe(429);
    expect(Date.parse(second.started_at) - Date.parse(first.started_at)).toBeGreaterThanOrEqual(
      950,
    );
  });

  it("410 Gone stops that endpoint", async () => {
    const rx = await receiver({
      behaviour: ({ path }) => ({ status: path === "/gone" ? 410 : 200 }),
    });
    const id = (
      await brief.kickoff({
        inputs: { topic: "a", audience: "b" },
        stepWebhookUrl: rx.url("/gone"),
      })
    ).json.kickoff_id;
    await brief.waitFor(id, (s) => s.status === "completed");
    const ds = await until("settled", () => deliveriesOf(id), settled);
    expect(ds.every((d) => d.status === "failed")).toBe(true);
    expect(rx.received.filter((r) => r.path === "/gone")).toHaveLength(1);
    // Later runs send that endpoint nothing.
    const id2 = (
      await brief.kickoff({
        inputs: { topic: "a", audience: "b" },
        stepWebhookUrl: rx.url("/gone"),
      })
    ).json.kickoff_id;
    await brief.waitFor(id2, (s) => s.status === "completed");
    expect(await deliveriesOf(id2)).toEqual([]);
    // Redelivering by hand re-enables it.
    rx.setBehaviour(() => ({ status: 200 }));
    const redo = await call(baseUrl, "POST", `/api/webhooks/deliveries/${ds[0].id}/redeliver`, {
      token: TEST_CREW_TOKEN,
    });
    expect(redo.status, redo.text).toBe(200);
    expect(redo.json).toEqual({ id: ds[0].id, status: "pending" });
    await until(
      "redelivered",
      () => deliveriesOf(id),
      (d) => d.some((x) => x.id === ds[0].id && x.status === "succeeded"),
    );
  });
});

describe("subscriptions follow the seed: kickoff URLs until the first pause, then each resume's", () => {
  it("replaces the subscription on every resume", async () => {
    const a = await receiver();
    const b = await receiver();
    const id = (
      await review.kickoff({
        inputs: { subject: "moss" },
        taskWebhookUrl: a.url("/task"),
        stepWebhookUrl: a.url("/step"),
        crewWebhookUrl: a.url("/crew"),
      })
    ).json.kickoff_id;
    await review.waitFor(id, (s) => s.status === "pending_human_input");
    await until(
      "review request at A",
      () => a.delivered(),
      (g) => g.some((x) => x.path === "/task"),
    );
    const reviewRequest = a.delivered().find((x) => x.path === "/task") as Received;
    expect(reviewRequest.body).toMatchObject({
      execution_id: id,
      task_id: "draft",
      requires_review: true,
      output: expect.stringContaining("moss"),
    });
    // The step events written before the pause may still be on their way to A: count once every
    // delivery so far has settled, or a late one of those reads as news of the resume.
    await until("A's deliveries settled", () => deliveriesOf(id), settled);
    const aBefore = a.received.length;
    const aRows = (await deliveriesOf(id)).length;

    // Resume with only a task URL at B: B gets task events from now on, A gets nothing more.
    const r = await review.resume({
      execution_id: id,
      task_id: "draft",
      human_feedback: "ok",
      is_approve: true,
      taskWebhookUrl: b.url("/task"),
    });
    expect(r.json.status).toBe("resumed");
    await review.waitFor(
      id,
      (s) => s.status === "pending_human_input" && s.pending_human_input.task_id === "polish",
    );
    await until(
      "B's task events",
      () => b.delivered(),
      (g) => g.filter((x) => x.path === "/task").length >= 2,
    );
    expect(b.delivered().map((x) => [x.body.task_id, x.body.requires_review])).toEqual([
      ["draft", false],
      ["polish", true],
    ]);
    expect(b.delivered().some((x) => x.path !== "/task")).toBe(false);

    // Final resume with no URLs: nobody hears of the completion.
    expect(
      (
        await review.resume({
          execution_id: id,
          task_id: "polish",
          human_feedback: "fine",
          is_approve: true,
        })
      ).json.status,
    ).toBe("completed");
    // Deliveries are written with the events they carry: once the run reads completed, every one
    // it will ever make is in the ledger, and the two B got are all there are since the pause.
    const after = await until("deliveries settled", () => deliveriesOf(id), settled);
    expect(after).toHaveLength(aRows + 2);
    expect(a.received.length).toBe(aBefore);
    expect(b.delivered()).toHaveLength(2);
    const toAOrB = (d: Json) => d.url.startsWith(a.url("")) || d.url.startsWith(b.url(""));
    expect(after.every(toAOrB)).toBe(true);
  });
});

describe("SSRF guard", () => {
  const refused: [string, RegExp][] = [
    ["http://127.0.0.1:9/hook", /loopback/],
    ["http://10.0.0.1/hook", /private/],
    ["http://169.254.169.254/latest/meta-data", /linkLocal/],
    ["http://[::1]:9/hook", /loopback/],
    ["http://[::ffff:127.0.0.1]:9/hook", /ipv4Mapped/],
    ["http://100.64.0.1/hook", /carrierGradeNat/],
    ["http://[fd00::1]/hook", /uniqueLocal/],
    ["http://224.0.0.1/hook", /multicast/],
    ["http://localhost:9/hook", /localhost resolves to .*loopback/],
    ["http://[::127.0.0.1]:9/hook", /embedding 127\.0\.0\.1 \(loopback\)/],
    // .invalid never resolves (RFC 6761): refused at once, not retried for a day and a half.
    ["http://no-such-host.invalid/hook", /the host no-such-host\.invalid does not resolve/],
  ];
  for (const [url, why] of refused) {
    it(`kickoff refuses ${url} with a 400 that says why`, async () => {
      const r = await brief.kickoff({ inputs: { topic: "a", audience: "b" }, stepWebhookUrl: url });
      expectProblem(r, 400);
      expect(r.json.errors[0].path).toBe("stepWebhookUrl");
      expect(r.json.detail).toMatch(why);
    });
  }
  it("resume refuses them too", async () => {
    const id = await review.start({ subject: "ferns" });
    await review.waitFor(id, (s) => s.status === "pending_human_input");
    const r = await review.resume({
      execution_id: id,
      task_id: "draft",
      human_feedback: "x",
      is_approve: true,
      crewWebhookUrl: "http://10.1.2.3/x",
    });
    expectProblem(r, 400);
    expect((await review.status(id)).json.status).toBe("pending_human_input"); // nothing applied
  });
});

describe("the deliveries API", () => {
  it("needs an organization token", async () => {
    const user = (await tokenCli(["create", "--user", "erin@example.com"], serverEnv))
      .token as string;
    expectProblem(await call(baseUrl, "GET", "/api/webhooks/deliveries"), 401);
    expectProblem(await call(baseUrl, "GET", "/api/webhooks/deliveries", { token: user }), 403);
    expectProblem(
      await call(
        baseUrl,
        "POST",
        "/api/webhooks/deliveries/00000000-0000-4000-8000-000000000000/redeliver",
        { token: user },
      ),
      403,
    );
    expectProblem(
      await call(
        baseUrl,
        "POST",
        "/api/webhooks/deliveries/00000000-0000-4000-8000-000000000000/redeliver",
        { token: TEST_CREW_TOKEN },
      ),
      404,
    );
    expectProblem(
      await call(baseUrl, "GET", "/api/webhooks/deliveries?status=nope", {
        token: TEST_CREW_TOKEN,
      }),
      400,
    );
  });
});
