import { describe, expect, it } from "vitest";
import { localProblems, preview, timingErrors } from "@/components/automation/schedule-timing";
import { errorsByField, isPolicy, triggerBody } from "@/components/automation/trigger-body";
import { ApiError } from "@/lib/api/client";

// The schedule and trigger dialogs' decisions: what is refused before sending, what is sent, and
// which of the server's refusals land on which field.
const problem = (errors: { path: string; message: string }[]) =>
  new ApiError({ type: "about:blank", title: "Unprocessable", status: 422, detail: "no", errors });

describe("schedule preview", () => {
  it("gives the next five times in the zone", () => {
    const next = preview("0 9 * * *", "UTC", new Date("2026-01-01T10:00:00Z"));
    expect("times" in next && next.times.map((t) => t.toISOString())).toEqual([
      "2026-01-02T09:00:00.000Z",
      "2026-01-03T09:00:00.000Z",
      "2026-01-04T09:00:00.000Z",
      "2026-01-05T09:00:00.000Z",
      "2026-01-06T09:00:00.000Z",
    ]);
  });
  it("says why an expression is wrong, and nothing for a zone this browser lacks", () => {
    const bad = preview("61 * * * *", "UTC");
    expect("problem" in bad && bad.problem).toBeTruthy();
    expect(preview("0 9 * * *", "Not/AZone")).toEqual({ problem: "" });
  });
});

describe("localProblems", () => {
  it("asks for a name and carries the cron problem", () => {
    expect(localProblems("  ", { problem: "bad cron" })).toEqual({
      name: "Name it: it is shown on every run it starts.",
      cron: "bad cron",
    });
  });
  it("is empty when the form can be sent", () => {
    expect(localProblems("Morning", { times: [] })).toEqual({});
    expect(localProblems("Morning", { problem: "" })).toEqual({});
  });
});

describe("timingErrors", () => {
  it("keeps only the timing's fields", () => {
    const err = problem([
      { path: "cron", message: "bad" },
      { path: "inputs.topic", message: "missing" },
      { path: "catch_up", message: "too many" },
    ]);
    expect(timingErrors(err)).toEqual({ cron: "bad", catch_up: "too many" });
  });
  it("is empty for an error that is not the server's", () => {
    expect(timingErrors(new Error("offline"))).toEqual({});
  });
});

describe("triggerBody", () => {
  it("trims, drops empty mappings and sends no concurrency without a key", () => {
    expect(
      triggerBody({ name: " Hook ", mapping: { a: " $.a ", b: "  " }, key: " ", policy: "stop" }),
    ).toEqual({ name: "Hook", mapping: { a: "$.a" }, concurrency: null });
  });
  it("sends the key with its policy", () => {
    expect(triggerBody({ name: "H", mapping: {}, key: " $.id ", policy: "reject" })).toEqual({
      name: "H",
      mapping: {},
      concurrency: { key: "$.id", policy: "reject" },
    });
  });
});

describe("trigger form helpers", () => {
  it("knows the three policies", () => {
    expect(["enqueue", "reject", "stop", "other"].map(isPolicy)).toEqual([true, true, true, false]);
  });
  it("maps the server's refusals by path", () => {
    expect(errorsByField(problem([{ path: "mapping.topic", message: "bad" }]))).toEqual({
      "mapping.topic": "bad",
    });
    expect(errorsByField(new Error("x"))).toEqual({});
  });
});
