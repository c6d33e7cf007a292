import { describe, expect, inject, it } from "vitest";
import { crewClient, expectProblem, type Json } from "../support/api";
import { TEST_CREW_TOKEN, tokenCli } from "../support/harness";
import { addPerson } from "../support/people";

// human_input tasks pause for review; /resume approves or sends back.
const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
const review = crewClient(baseUrl, "review", TEST_CREW_TOKEN);
const paused =
  (task: string, attempt = 1) =>
  (s: Json) =>
    s.status === "pending_human_input" &&
    s.pending_human_input?.task_id === task &&
    s.pending_human_input.attempt === attempt;

describe("review round trip", () => {
  it("pauses, retries with feedback, resumes, completes", async () => {
    const id = await review.start({ subject: "otters" });
    let s = await review.waitFor(id, paused("draft"));
    expect(s).toMatchObject({
      state: "RUNNING",
      current_task: "draft",
      in_progress: ["draft"],
    });
    expect(s.tasks[0]).toMatchObject({ status: "pending_human_input", attempts: 1 });
    expect(s.pending_human_input.output).toContain("otters");

    // A later task is not awaiting review: 400, as CrewAI's API answers.
    const early = await review.resume({
      execution_id: id,
      task_id: "polish",
      human_feedback: "x",
      is_approve: true,
    });
    expectProblem(early, 400);
    expect(early.json).toMatchObject({ awaiting_task_id: "draft", error: "Invalid Request" });
    // No such task, no such execution: 404.
    const noTask = await review.resume({
      execution_id: id,
      task_id: "nope",
      human_feedback: "x",
      is_approve: true,
    });
    expectProblem(noTask, 404);
    expect(noTask.json.detail).toMatch(/no task 'nope'.*draft, polish/);
    expectProblem(
      await review.resume({
        execution_id: "00000000-0000-4000-8000-000000000000",
        task_id: "draft",
        human_feedback: "x",
        is_approve: true,
      }),
      404,
    );

    const reject = {
      execution_id: id,
      task_id: "draft",
      human_feedback: "Mention rivers.",
      is_approve: false,
    };
    const r1 = await review.resume(reject);
    expect(r1.status, r1.text).toBe(200);
    expect(r1.json.status).toBe("retrying");
    s = await review.waitFor(id, paused("draft", 2));
    expect(s.tasks[0].attempts).toBe(2);
    expect(s.pending_human_input.output).toContain("Mention rivers.");

    // The same click twice is answered, not applied again.
    const again = await review.resume(reject);
    expect(again.status).toBe(200);
    expect(again.json.status).toBe("retrying");
    expect((await review.status(id)).json.tasks[0].attempts).toBe(2);

    const r2 = await review.resume({
      execution_id: id,
      task_id: "draft",
      human_feedback: "Good.",
      is_approve: true,
    });
    expect(r2.json.status).toBe("resumed");
    s = await review.waitFor(id, paused("polish"));
    expect(s.tasks[0].status).toBe("completed");
    expect(s.pending_human_input.output).toContain("Good.");

    const r3 = await review.resume({
      execution_id: id,
      task_id: "polish",
      human_feedback: "Ship it.",
      is_approve: true,
      // What Semantic Kernel's CrewAI plugins send when no callback is set: no callback.
      taskWebhookUrl: null,
      stepWebhookUrl: null,
      crewWebhookUrl: "",
    });
    expect(r3.status, r3.text).toBe(200);
    expect(r3.json.status).toBe("completed");
    s = (await review.status(id)).json;
    expect(s).toMatchObject({ status: "completed", state: "SUCCESS" });
    expect(s.result).toBe(s.tasks[1].output);

    const types = (await review.events(id)).json.events.map((e: { type: string }) => e.type);
    expect(types.filter((t: string) => t === "review_requested")).toHaveLength(3);
    expect(types.filter((t: string) => t === "review_submitted")).toHaveLength(3);
    expectProblem(
      await review.resume({
        execution_id: id,
        task_id: "polish",
        human_feedback: "late",
        is_approve: false,
      }),
      409,
    );
  });

  it("a paused execution can be stopped", async () => {
    const id = await review.start({ subject: "owls" });
    await review.waitFor(id, paused("draft"));
    expect((await review.stop(id)).status).toBe(200);
    expect((await review.status(id)).json).toMatchObject({
      status: "cancelled",
      state: "FAILED",
      pending_human_input: null,
    });
    // Nothing awaits review any more: 400.
    const r = await review.resume({
      execution_id: id,
      task_id: "draft",
      human_feedback: "too late",
      is_approve: true,
    });
    expectProblem(r, 400);
    expect(r.json.detail).toMatch(/not awaiting human input \(it is cancelled\)/);
  });
});

describe("review rounds and the audit trail", () => {
  it("max_review_rounds bounds send-backs; every decision is recorded with who and when", async () => {
    // A personal token reviews with its owner's role: rita is a reviewer.
    await addPerson(baseUrl, { email: "rita@example.com", role: "reviewer" });
    const user = (await tokenCli(["create", "--user", "rita@example.com"], serverEnv))
      .token as string;
    const bounded = crewClient(baseUrl, "bounded-review", user);
    const id = await bounded.start({ brand: "Acme" });
    await bounded.waitFor(id, paused("slogan"));
    const send = {
      execution_id: id,
      task_id: "slogan",
      human_feedback: "Shorter.",
      is_approve: false,
    };
    expect((await bounded.resume(send)).json.status).toBe("retrying");
    await bounded.waitFor(id, paused("slogan", 2));
    const again = await bounded.resume({ ...send, human_feedback: "Even shorter." });
    expectProblem(again, 409);
    expect(again.json.detail).toMatch(/all 1 review rounds/);
    expect(
      (await bounded.resume({ ...send, human_feedback: "Fine.", is_approve: true })).json.status,
    ).toBe("completed");

    const events = (await bounded.events(id)).json.events as {
      type: string;
      attempt: number;
      data: Record<string, unknown>;
      created_at: string;
    }[];
    const reviews = events.filter((e) => e.type === "review_submitted");
    expect(
      reviews.map((e) => [e.attempt, e.data.decision, e.data.feedback, e.data.reviewer]),
    ).toEqual([
      [1, "reject", "Shorter.", "rita@example.com"],
      [2, "approve", "Fine.", "rita@example.com"],
    ]);
    expect(reviews.every((e) => !Number.isNaN(Date.parse(e.created_at)))).toBe(true);
  });
});

describe("two reviewers racing", () => {
  it("both decide at the same moment: one wins, the other is told who was first", async () => {
    const id = await review.start({ subject: "racing" });
    await review.waitFor(id, paused("draft"));
    const decide = (human_feedback: string, is_approve: boolean) =>
      review.resume({ execution_id: id, task_id: "draft", human_feedback, is_approve });
    // Sent together: the row lock orders them, whichever arrives first.
    const answers = await Promise.all([decide("ship it", true), decide("redo it", false)]);
    const won = answers.filter((a) => a.status === 200);
    const lost = answers.filter((a) => a.status !== 200);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    const late = lost[0] as (typeof answers)[number];
    expectProblem(late, 409);
    expect(late.json.detail).toMatch(/already (approved|sent back) by org-token:CREW_TOKEN/);
    expect(late.json.reviewed_by).toBe("org-token:CREW_TOKEN");
    const reviews = (await review.events(id)).json.events.filter(
      (e: { type: string }) => e.type === "review_submitted",
    );
    expect(reviews).toHaveLength(1);
  });
});
