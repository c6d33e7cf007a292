import { describe, expect, it, vi } from "vitest";
import { calibrateJudge, calibrationOutcome } from "@/components/experiments/calibration";

// Calibrating a judge from the experiment page: what it says when done, and how it follows it.
const done = { status: "completed" as const, agreement: 0.8, items: [], error: null };

describe("a judge's calibration", () => {
  it("says how often the judge agreed, or why it could not say", () => {
    expect(calibrationOutcome(done)).toEqual({
      ok: true,
      text: expect.stringMatching(/^The judge agrees with the reviewers 80(\.0)?% of the time\.$/),
    });
    expect(
      calibrationOutcome({ ...done, agreement: null, items: [{ reason: "no JSON" }] }),
    ).toEqual({ ok: false, text: "The judge scored none of the decisions: no JSON" });
    expect(calibrationOutcome({ ...done, agreement: null })).toEqual({
      ok: false,
      text: "The judge scored none of the decisions: no answer",
    });
    expect(calibrationOutcome({ ...done, status: "failed", error: "model down" }).text).toBe(
      "model down",
    );
    expect(calibrationOutcome({ ...done, status: "running" }).text).toBe(
      "The calibration did not finish.",
    );
  });

  it("follows a running calibration until it is done", async () => {
    vi.useFakeTimers();
    const running: { id: string; total: number; status: "running" | "completed" } = {
      id: "c1",
      total: 3,
      status: "running",
    };
    const answers = [running, { ...running, status: "completed" as const }];
    const calibration = vi.fn(async () => answers.shift() ?? running);
    const api = { calibrate: async () => running, calibration };
    const started = vi.fn();
    const result = calibrateJudge(api, { model: "m" }, started);
    await vi.runAllTimersAsync();
    expect((await result).status).toBe("completed");
    expect(started).toHaveBeenCalledWith(running);
    expect(calibration).toHaveBeenCalledTimes(2);
    vi.useRealTimers();
  });
});
