import { describe, expect, it } from "vitest";
import {
  experimentBody,
  experimentScorers,
  newExperimentForm,
  plannedRuns,
  togglePicked,
} from "@/components/experiments/experiment-form";
import { problemText } from "@/components/experiments/problem-text";
import { ApiError } from "@/lib/api/client";

// "New experiment": what the dialog asks the API for, from what was filled in.
const form = (over: Partial<ReturnType<typeof newExperimentForm>> = {}) => ({
  ...newExperimentForm(true),
  ...over,
});

describe("the new experiment form", () => {
  it("starts with the crew as it is, three repeats, four at once, similarity scored", () => {
    const f = newExperimentForm(false);
    expect([...f.picked]).toEqual(["current"]);
    expect([f.repeats, f.parallelism, f.similarity, f.skipReviews]).toEqual([
      "3",
      "4",
      true,
      false,
    ]);
    expect(newExperimentForm(true).skipReviews).toBe(true);
  });

  it("toggles a variant without changing the set it was given", () => {
    const picked = new Set(["current"]);
    expect([...togglePicked(picked, "terse")]).toEqual(["current", "terse"]);
    expect([...togglePicked(picked, "current")]).toEqual([]);
    expect([...picked]).toEqual(["current"]);
  });

  it("scores on the chosen task, a judge with two variants also comparing the pair", () => {
    const f = form({ task: "t1", contains: "  yes ", judgeModel: " m " });
    expect(experimentScorers(f, ["current", "terse"])).toEqual([
      { type: "similarity", task: "t1" },
      { type: "contains", value: "yes", task: "t1" },
      { type: "judge", name: "quality", model: "m", preset: "crewai", pass_at: 7, task: "t1" },
      { type: "pairwise", model: "m", variants: ["current", "terse"], task: "t1" },
    ]);
    expect(experimentScorers(f, ["current"]).map((s) => s.type)).toEqual([
      "similarity",
      "contains",
      "judge",
    ]);
    expect(experimentScorers(form({ similarity: false, contains: " " }), ["a", "b"])).toEqual([]);
  });

  it("names the experiment after its variants when no name is given, numbers read leniently", () => {
    const f = form({ picked: new Set(["terse", "current"]), repeats: "", parallelism: "x" });
    expect(experimentBody(f, ["current", "terse"], "d1")).toEqual({
      name: "current vs terse",
      dataset: "d1",
      variants: ["current", "terse"],
      repeats: 1,
      parallelism: 4,
      reviews: "skip",
      scorers: [{ type: "similarity" }],
    });
    const named = experimentBody(
      form({ name: " mine ", skipReviews: false, maxTokens: "500" }),
      ["current"],
      "d1",
    );
    expect(named).toMatchObject({ name: "mine", reviews: "wait", budget: { max_tokens: 500 } });
  });

  it("counts the runs: rows × variants × repeats", () => {
    expect(plannedRuns(5, form({ picked: new Set(["a", "b"]), repeats: "3" }))).toBe(30);
    expect(plannedRuns(5, form({ repeats: "" }))).toBe(5);
  });

  it("says each field's problem, else the error's message", () => {
    const problem = { type: "about:blank", title: "Invalid", status: 422, detail: "bad" };
    const errors = [
      { path: "name", message: "too long" },
      { path: "dataset", message: "unknown" },
    ];
    expect(problemText(new ApiError({ ...problem, errors }))).toBe(
      "name: too long; dataset: unknown",
    );
    expect(problemText(new ApiError({ ...problem, errors: [] }))).toBe("bad");
    expect(problemText(new Error("offline"))).toBe("offline");
  });
});
