import { beforeAll, describe, expect, inject, it } from "vitest";
import { signatureHeaders } from "@/lib/webhooks/signing";
import { call, crewClient, expectProblem, type Json, type Reply } from "../support/api";
import { TEST_CREW_TOKEN, TEST_INTEGRATION_TOKEN } from "../support/harness";
import { TEST_WEBHOOK_SECRET } from "../support/receiver";

// JSON that parses but cannot be stored or handled: a NUL character or a lone UTF-16 surrogate
// (PostgreSQL refuses both in text and jsonb), and objects nested thousands deep (recursive code
// runs out of stack). Every body reader answers 400 naming the place, on both databases.
const baseUrl = inject("baseUrl");
const brief = crewClient(baseUrl, "brief", TEST_CREW_TOKEN);

// JSON.stringify writes a lone surrogate as the escape \udXXX; a NUL as \u0000.
const NUL = "a\u0000b";
const LONE = "x\uD800y";
const INPUTS = { topic: "ok", audience: "testers" };
const deep = (n: number) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;

function expectBadAt(r: Reply, path: string, what: RegExp) {
  expectProblem(r, 400);
  expect(r.json.detail).toContain(path);
  expect(r.json.detail).toMatch(what);
  expect(r.json.errors).toEqual([{ path, message: expect.stringMatching(what) }]);
}

let reviewRun: string;
beforeAll(async () => {
  const review = crewClient(baseUrl, "review", TEST_CREW_TOKEN);
  reviewRun = await review.start({ subject: "bad json" });
  await review.waitFor(reviewRun, (s: Json) => s.status === "pending_human_input");
});

describe("strings the database cannot store are 400s naming the field", () => {
  it("kickoff: NUL in an input, a lone surrogate in meta, or in a key", async () => {
    expectBadAt(await brief.kickoff({ inputs: { ...INPUTS, topic: NUL } }), "inputs.topic", /NUL/);
    expectBadAt(
      await brief.kickoff({ inputs: INPUTS, meta: { tags: ["fine", LONE] } }),
      "meta.tags.1",
      /surrogate/,
    );
    expectBadAt(await brief.kickoff({ inputs: INPUTS, meta: { [NUL]: 1 } }), "meta", /key .*NUL/);
    // A surrogate pair (an emoji) is ordinary text and still runs.
    const emoji = await brief.kickoff({ inputs: { ...INPUTS, topic: "ok \u{1F600}" } });
    expect(emoji.status, emoji.text).toBe(200);
  });

  it("resume: NUL in human_feedback; nothing is recorded", async () => {
    const review = crewClient(baseUrl, "review", TEST_CREW_TOKEN);
    const body = { execution_id: reviewRun, task_id: "draft", is_approve: false };
    expectBadAt(await review.resume({ ...body, human_feedback: NUL }), "human_feedback", /NUL/);
    expect((await review.status(reviewRun)).json.status).toBe("pending_human_input");
  });

  it("tracker actions and the webhook receiver", async () => {
    const act = await call(baseUrl, "POST", "/api/integrations/actions/create_issue/execute", {
      token: TEST_INTEGRATION_TOKEN,
      body: { integration: { teamId: "x", title: LONE } },
    });
    // Tracker actions answer in their own error format, {"error": {"code", "message"}}.
    expect(act.status, act.text).toBe(400);
    expect(act.json.error).toMatchObject({ code: "bad-character" });
    expect(act.json.error.message).toMatch(/integration\.title: .*surrogate/);

    const id = `msg_nul_${Date.now()}`;
    const hook = JSON.stringify({ event: "crew", note: NUL });
    const received = await call(baseUrl, "POST", "/api/hooks/receive", {
      body: hook,
      headers: {
        "content-type": "application/json",
        ...signatureHeaders({ secret: TEST_WEBHOOK_SECRET, id, body: hook }),
      },
    });
    expectBadAt(received, "note", /NUL/);
  });
});

describe("bodies nested too deep are 400s, not a stack overflow", () => {
  it("meta nested 7,000 deep, and one level past the limit", async () => {
    for (const meta of [deep(7000), deep(64)]) {
      const r = await call(baseUrl, "POST", "/api/crews/brief/kickoff", {
        token: TEST_CREW_TOKEN,
        body: `{"inputs":${JSON.stringify(INPUTS)},"meta":${meta}}`,
      });
      expectProblem(r, 400);
      expect(r.json.detail).toMatch(/more than 64 levels deep/);
    }
    // Brackets inside strings are text, not nesting.
    const ok = await brief.kickoff({
      inputs: { ...INPUTS, topic: "[".repeat(500) },
      meta: { brackets: "{{[[", nested: JSON.parse(deep(40)) },
    });
    expect(ok.status, ok.text).toBe(200);
  });
});
