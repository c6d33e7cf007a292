import { describe, expect, it } from "vitest";
import { approvalOf, approvedReview, withApproval } from "@/lib/reviews/decide";
import { openReview, sha256 } from "@/lib/run-model/open-reviews";
import { at, def, who } from "../support/review-rows";

// The parts of an approval, on the review alone: what one person's approval keeps, how an edit
// resets a quorum, and what the task's review trail records.

const review = openReview(def("a"), 2, "draft", at(0));
const decision = { feedback: "fine", response: { rating: 5 }, outcome: "ship" };

describe("one approval", () => {
  it("keeps who, when, the feedback and the answers, and says if it edited", () => {
    expect(approvalOf(who("ada"), decision, at(1), false)).toEqual({
      reviewer: "ada",
      user_id: "ada",
      at: at(1).toISOString(),
      feedback: "fine",
      response: { rating: 5 },
    });
    expect(approvalOf(who("ada"), { feedback: "" }, at(1), true)).toEqual({
      reviewer: "ada",
      user_id: "ada",
      at: at(1).toISOString(),
      feedback: "",
      edited: true,
    });
  });
});

describe("a review with one more approval", () => {
  const first = approvalOf(who("ada"), decision, at(1), false);
  const second = approvalOf(who("bob"), decision, at(2), false);

  it("adds it to those of the same text", () => {
    const once = withApproval(review, first, undefined);
    expect(withApproval(once, second, undefined).approvals).toEqual([first, second]);
    expect(once.output).toBe("draft");
  });

  it("starts over with an edit, which becomes the text under review", () => {
    const once = withApproval(review, first, undefined);
    const edited = withApproval(once, second, "better");
    expect(edited.approvals).toEqual([second]);
    expect(edited.output).toBe("better");
    expect(edited.output_sha256).toBe(sha256("better"));
    expect(edited.agent_output).toBe("draft");
  });
});

describe("the approval in the task's review trail", () => {
  it("keeps the agent's output, and the approved text with its diff when they differ", () => {
    const edited = withApproval(review, approvalOf(who("ada"), decision, at(1), true), "better");
    expect(approvedReview(edited, who("ada"), decision, at(1), "-draft\n+better")).toEqual({
      attempt: 2,
      is_approve: true,
      feedback: "fine",
      output: "draft",
      edited_output: "better",
      diff: "-draft\n+better",
      response: { rating: 5 },
      outcome: "ship",
      reviewer: "ada",
      at: at(1).toISOString(),
    });
  });

  it("names every approver under a quorum, and no edit when none was made", () => {
    const a = withApproval(
      review,
      approvalOf(who("ada"), { feedback: "" }, at(1), false),
      undefined,
    );
    const b = withApproval(a, approvalOf(who("bob"), { feedback: "" }, at(2), false), undefined);
    const record = approvedReview(b, who("bob"), { feedback: "ok" }, at(2), undefined);
    expect(record).toEqual({
      attempt: 2,
      is_approve: true,
      feedback: "ok",
      output: "draft",
      approvers: ["ada", "bob"],
      reviewer: "bob",
      at: at(2).toISOString(),
    });
  });
});
