import { describe, expect, it } from "vitest";
import { forkBody, forkButtonLabel, forkDescription } from "@/components/run/fork-model";

const research = { task_id: "research", name: "Research", output: "notes" };

// The fork sends an edit only when the chosen output's text was changed.
describe("forkBody", () => {
  it("starts at the task with no edit when the text is as the run left it", () => {
    expect(forkBody("write", research, "notes")).toEqual({ from_task: "write" });
    expect(forkBody("write", undefined, "")).toEqual({ from_task: "write" });
  });
  it("carries the edited output of the chosen task", () => {
    expect(forkBody("write", research, "better notes")).toEqual({
      from_task: "write",
      edit: { task_id: "research", output: "better notes" },
    });
  });
});

describe("forkDescription", () => {
  it("says 'is' for one inherited task and 'are' for several", () => {
    expect(forkDescription([research])).toBe(
      "A new run starts at this task. “Research” is taken from this run as they are, not run again — edit one first if it should read differently.",
    );
    expect(forkDescription([research, { name: "Outline" }])).toContain(
      "“Research”, “Outline” are taken",
    );
  });
});

describe("forkButtonLabel", () => {
  it("says what the button does, or that it is starting", () => {
    expect(forkButtonLabel(true, true)).toBe("Starting…");
    expect(forkButtonLabel(false, true)).toBe("Start the fork with the edit");
    expect(forkButtonLabel(false, false)).toBe("Start the fork");
  });
});
