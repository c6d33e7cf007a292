import { describe, expect, it } from "vitest";
import { feedbackSentMessage } from "@/components/review/use-feedback-sender";

// What a reviewer reads once a flow has their feedback.
describe("feedbackSentMessage", () => {
  it("names the outcome chosen", () => {
    expect(feedbackSentMessage("Check", "publish")).toBe("“Check”: publish. The flow goes on.");
  });
  it("says the feedback went when there was no outcome to choose", () => {
    expect(feedbackSentMessage("Check")).toBe("Feedback on “Check” sent. The flow goes on.");
  });
  it("keeps an empty outcome as an outcome", () => {
    expect(feedbackSentMessage("Check", "")).toBe("“Check”: . The flow goes on.");
  });
});
