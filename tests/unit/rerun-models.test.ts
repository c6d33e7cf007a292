import { describe, expect, it } from "vitest";
import { chosenModels, modelRefusals } from "@/components/run/rerun-dialog";
import { ApiError } from "@/lib/api/client";

// "Re-run with edits": the models sent, and a refusal's problems put on the model fields.
describe("a re-run's models", () => {
  it("sends only the models given, trimmed", () => {
    expect(chosenModels({ "*": " ", writer: " openai/gpt-4o ", editor: "" })).toEqual({
      writer: "openai/gpt-4o",
    });
  });

  it("puts a refusal's model problems on their agents, every agent as *", () => {
    const err = new ApiError({
      type: "about:blank",
      title: "Invalid",
      status: 422,
      detail: "bad",
      errors: [
        { path: "models.writer", message: "unknown provider" },
        { path: "models", message: "no such model" },
        { path: "inputs.topic", message: "required" },
      ],
    });
    expect(modelRefusals(err)).toEqual({ writer: "unknown provider", "*": "no such model" });
    expect(modelRefusals(new Error("offline"))).toEqual({});
  });
});
