import { describe, expect, it } from "vitest";
import {
  approveProblem,
  doneMessage,
  reviewKey,
  sendBackProblem,
  tallyText,
} from "@/components/review/decision-rules";

// The output review's decisions: what is refused before sending, what the inbox says after, and
// which key does what.
const press = (
  key: string,
  mods: Partial<Record<"altKey" | "ctrlKey" | "metaKey", boolean>> = {},
) => ({
  key,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  defaultPrevented: false,
  ...mods,
});
const page = { inFeedback: false, typing: false };

describe("doneMessage", () => {
  it("says a send-back with the next attempt", () => {
    expect(doneMessage("Draft", 1, false, "sent_back", "", false)).toBe(
      "Sent “Draft” back: it will run again with your feedback (attempt 2).",
    );
  });
  it("tells a recorded approval, a waiting run and a continuing one apart", () => {
    expect(doneMessage("D", 1, true, "approval_recorded", " (1 of 2)", false)).toBe(
      "Your approval of “D” is recorded (1 of 2); it waits for more approvals.",
    );
    expect(doneMessage("D", 1, true, "waiting", "", false)).toBe(
      "Approved “D”; the run still waits for its other reviews.",
    );
    expect(doneMessage("D", 1, true, "running", "", true)).toBe(
      "Approved “D” with your edits: the run continues.",
    );
  });
  it("tallies a quorum only when there is one", () => {
    expect(tallyText({ count: 1, required: 3 })).toBe(" (1 of 3)");
    expect(tallyText(null)).toBe("");
  });
});

describe("what is refused before sending", () => {
  it("refuses edited JSON that does not parse, only when the output is JSON", () => {
    expect(approveProblem("{oops", true)).toMatch(/^The edited output is not approved: /);
    expect(approveProblem("{oops", false)).toBeNull();
    expect(approveProblem('{"a":1}', true)).toBeNull();
    expect(approveProblem(undefined, true)).toBeNull();
  });
  it("sends back only without edits and with feedback", () => {
    expect(sendBackProblem("edited", "fix it")?.focus).toBe(false);
    expect(sendBackProblem(undefined, "  ")).toEqual({
      text: "Say what to change: sending back needs feedback.",
      focus: true,
    });
    expect(sendBackProblem(undefined, "fix it")).toBeNull();
  });
});

describe("reviewKey", () => {
  it("maps a, s, r and u on the page", () => {
    expect(["a", "s", "r", "u", "x"].map((k) => reviewKey(press(k), page))).toEqual([
      "approve",
      "focus",
      "focus",
      "undo",
      null,
    ]);
  });
  it("sends back on Ctrl or ⌘+Enter in the feedback only", () => {
    expect(reviewKey(press("Enter", { ctrlKey: true }), { inFeedback: true, typing: true })).toBe(
      "sendBack",
    );
    expect(reviewKey(press("Enter", { metaKey: true }), page)).toBeNull();
  });
  it("leaves typing, modifiers and handled keys alone", () => {
    expect(reviewKey(press("a"), { inFeedback: false, typing: true })).toBeNull();
    expect(reviewKey(press("a", { ctrlKey: true }), page)).toBeNull();
    expect(reviewKey(press("a", { altKey: true }), page)).toBeNull();
    expect(reviewKey({ ...press("a"), defaultPrevented: true }, page)).toBeNull();
  });
});
