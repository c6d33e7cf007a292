import { beforeAll, describe, expect, it } from "vitest";
import type { ResumeRequest } from "@/lib/contract/crew";
import type { Db } from "@/lib/db/types";
import type { ToolReview } from "@/lib/run-model/types";
import { embeddedDbForFile } from "../support/embedded-db";
import { awaitingReview, org, refused, rowOf } from "../support/review-run";

// A decision on a tool call sent again after the call's review closed is answered as it was
// then; a decision that only looks like it, on an output review open now, is a new decision.
let db: Db;
let resume: typeof import("@/lib/reviews/resume-execution");

const embedded = embeddedDbForFile("review-tool-replays");

beforeAll(async () => {
  db = embedded.db;
  resume = await import("@/lib/reviews/resume-execution");
});

const approvedCall: ToolReview = {
  attempt: 1,
  call_id: "c1",
  tool: "search",
  approved: true,
  arguments: {},
  feedback: "ok",
  reviewer: "org-token:CREW_TOKEN",
  at: new Date(Date.now() - 60_000).toISOString(),
};

/** A run of `crew` paused on tasks `open`, whose task `decided` had call c1 approved. */
async function withDecidedCall(open: string[], crew = "review", decided = "draft") {
  const id = await awaitingReview(db, crew, { open });
  const { mutateExecution } = await import("@/lib/runs/execution-store");
  await db.tx((q) =>
    mutateExecution(q, { id }, (r) => ({
      patch: {
        tasks: r.tasks.map((t) =>
          t.task_id === decided ? { ...t, tool_reviews: [approvedCall] } : t,
        ),
      },
    })),
  );
  return id;
}

const decide = (id: string, ask: Partial<ResumeRequest>, crew = "review") =>
  resume.resumeExecution({
    db,
    crew,
    principal: org,
    request: {
      execution_id: id,
      task_id: "draft",
      human_feedback: "ok",
      is_approve: true,
      ...ask,
    },
  });

describe("a tool call's decision sent again", () => {
  it("is answered as it was, once the call's review closed", async () => {
    const id = await withDecidedCall(["polish"]);
    expect(await decide(id, { call_id: "c1" })).toEqual({
      status: "resumed",
      message: "Already applied: the call to 'search' was approved.",
    });
    expect((await decide(id, {})).status).toBe("resumed");
  });

  it("is refused when it says otherwise, naming who decided", async () => {
    const id = await withDecidedCall(["polish"]);
    const err = await refused(decide(id, { call_id: "c1", is_approve: false }), 409);
    expect(err.details).toEqual({
      reviewed_by: approvedCall.reviewer,
      reviewed_at: approvedCall.at,
    });
  });

  it("is a new decision while the task's output review is open", async () => {
    const id = await withDecidedCall(["draft"]);
    expect((await decide(id, {})).status).toBe("resumed");
    const draft = (await rowOf(db, id)).tasks.find((t) => t.task_id === "draft");
    expect(draft?.status).toBe("completed");
    expect(draft?.reviews?.map((r) => r.feedback)).toEqual(["ok"]);
  });

  it("is a new decision while the output review is open beside another", async () => {
    const id = await withDecidedCall(["headline", "teaser"], "parallel-review", "teaser");
    const ask = { task_id: "teaser" };
    expect((await decide(id, ask, "parallel-review")).status).toBe("waiting");
    const teaser = (await rowOf(db, id)).tasks.find((t) => t.task_id === "teaser");
    expect(teaser?.status).toBe("completed");
  });
});
