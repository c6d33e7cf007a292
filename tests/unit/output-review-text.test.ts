import { describe, expect, it } from "vitest";
import { approvalsLeft, sendingNote } from "@/components/review/output-review-text";

// What the output review panel says about votes and a decision on its way.
const approval = { reviewer: "a@x", at: "" };

describe("approvalsLeft", () => {
  it("counts the approvals still wanted", () => {
    expect(approvalsLeft({ required_approvals: 3, approvals: [approval] })).toBe(2);
    expect(approvalsLeft({ required_approvals: 1, approvals: [approval] })).toBe(0);
  });
});

describe("sendingNote", () => {
  it("names the decision being sent", () => {
    expect(sendingNote("approve")).toBe("Sending the approval…");
    expect(sendingNote("reject")).toBe("Sending it back…");
  });
});
