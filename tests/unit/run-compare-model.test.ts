import { describe, expect, it } from "vitest";
import { inputNames, sameOutputNote, show, taskIdsOf } from "@/components/run/run-compare-model";

// Only the fields these decisions read; the rest of a run does not matter to them.
const run = (inputs: Record<string, unknown> | undefined, ids: string[]) => ({
  inputs,
  tasks: ids.map((task_id) => ({ task_id })),
});
const task = (output: string) => ({ output });

describe("show", () => {
  it("reads absent values as a dash, booleans as Yes/No, strings as they are, else JSON", () => {
    expect([null, undefined, ""].map(show)).toEqual(["—", "—", "—"]);
    expect([true, false].map(show)).toEqual(["Yes", "No"]);
    expect(show("topic")).toBe("topic");
    expect(show(3)).toBe("3");
    expect(show({ a: [1] })).toBe('{"a":[1]}');
  });
});

describe("inputNames and taskIdsOf", () => {
  it("list each name once, the first run's first", () => {
    expect(inputNames(run({ a: 1, b: 2 }, []), run({ b: 3, c: 4 }, []))).toEqual(["a", "b", "c"]);
    expect(inputNames(run(undefined, []), run(undefined, []))).toEqual([]);
    expect(taskIdsOf(run({}, ["x", "y"]), run({}, ["y", "z"]))).toEqual(["x", "y", "z"]);
  });
});

describe("sameOutputNote", () => {
  it("is null when the outputs differ", () => {
    expect(sameOutputNote(task("a"), task("b"))).toBeNull();
    expect(sameOutputNote(task("a"), undefined)).toBeNull();
  });
  it("says whether the same output is there or missing in both", () => {
    expect(sameOutputNote(task("a"), task("a"))).toBe("The same output in both runs.");
    expect(sameOutputNote(task(""), undefined)).toBe("No output in either run.");
    expect(sameOutputNote(undefined, undefined)).toBe("No output in either run.");
  });
});
