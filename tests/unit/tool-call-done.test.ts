import { describe, expect, it } from "vitest";
import { toolCallDone } from "@/components/review/use-tool-call-sender";

// What a reviewer reads after deciding one tool call, and what the decision did.
describe("toolCallDone", () => {
  it("counts the calls still to decide after an approval", () => {
    expect(toolCallDone("search", true, false, 2, "running")).toEqual({
      message: "Approved search: 2 more calls to decide.",
      decided: "recorded",
    });
    expect(toolCallDone("search", true, true, 1, "running")).toEqual({
      message: "Approved search with your edits: 1 more call to decide.",
      decided: "recorded",
    });
  });
  it("says whether the run goes on after the last approval", () => {
    expect(toolCallDone("search", true, false, 0, "waiting")).toEqual({
      message: "Approved search: the run still waits for its other reviews.",
      decided: "approved",
    });
    expect(toolCallDone("search", true, false, 0, "running")).toEqual({
      message: "Approved search: it runs and the agent goes on.",
      decided: "approved",
    });
  });
  it("says the agent goes on without a refused call", () => {
    expect(toolCallDone("rm", false, false, 0, "running")).toEqual({
      message: "Refused rm: the agent goes on without it.",
      decided: "sent_back",
    });
    expect(toolCallDone("rm", false, false, 1, "running")).toEqual({
      message: "Refused rm: the agent goes on without it (1 more call to decide).",
      decided: "recorded",
    });
  });
});
