import { describe, expect, it } from "vitest";
import { changed, variantChanges, variantProblem } from "@/components/experiments/variant-changes";

// "New variant" saves only what differs from the crew, and says what is missing first.
const writer = { id: "writer", llm: "openai/gpt-4o", role: "Writer", goal: "g", backstory: "b" };
const write = { id: "write", description: "Write it", expected_output: "An article" };

describe("a variant's changes", () => {
  it("keeps only the fields edited to something else, spaces aside", () => {
    expect(changed(writer, { role: " Writer ", goal: "shorter", llm: undefined })).toEqual({
      goal: "shorter",
    });
    expect(changed(writer, {})).toEqual({});
  });

  it("names the agent and task changed, and a chosen process", () => {
    expect(
      variantChanges(
        { id: "writer", now: writer, edits: { llm: "m" } },
        { id: "write", now: write, edits: { description: "Write less" } },
        "hierarchical",
      ),
    ).toEqual({
      agents: { writer: { llm: "m" } },
      tasks: { write: { description: "Write less" } },
      process: "hierarchical",
    });
    expect(
      variantChanges(
        { id: "gone", now: undefined, edits: { llm: "m" } },
        { id: "write", now: write, edits: { description: "Write it" } },
        "",
      ),
    ).toEqual({});
  });

  it("asks for a name first, then for at least one change", () => {
    expect(variantProblem(" ", { process: "sequential" })).toBe("Name the variant.");
    expect(variantProblem("terse", {})).toBe(
      "Change at least one thing: a model, a prompt, a task or the process.",
    );
    expect(variantProblem("terse", { process: "sequential" })).toBeNull();
  });
});
