import { describe, expect, it } from "vitest";
import { formatDuration, secondsBetween } from "@/lib/format/duration";
import { shortId } from "@/lib/format/id";
import { formatPercent, formatTokens, formatUsd } from "@/lib/format/numbers";
import { statusLabel } from "@/lib/format/status";
import { formatDay, formatRelative } from "@/lib/format/time";

describe("the dashboard's one vocabulary", () => {
  it.each([
    ["queued", "Queued", "neutral"],
    ["running", "Running", "info"],
    ["pending_human_input", "Awaiting review", "warning"],
    ["completed", "Completed", "success"],
    ["error", "Failed", "danger"],
    // Stopping is a decision, not a failure: never red.
    ["cancelled", "Stopped", "neutral"],
  ])("%s reads %s", (status, label, tone) => {
    expect(statusLabel(status)).toEqual({ label, tone });
  });

  it("an unknown status is still words, not an identifier", () => {
    expect(statusLabel("some_new_state").label).toBe("some new state");
  });

  it.each([
    [null, "—"],
    [0.85, "850 ms"],
    [4.21, "4.2 s"],
    [42.4, "42 s"],
    [185, "3 m 05 s"],
    [8040, "2 h 14 m"],
    [273_600, "3 d 4 h"],
  ])("duration %s → %s", (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });

  it("measures to now while something is still going on", () => {
    const now = Date.parse("2026-01-01T00:01:00Z");
    expect(secondsBetween("2026-01-01T00:00:00Z", null, now)).toBe(60);
    expect(secondsBetween("2026-01-01T00:00:00Z", "2026-01-01T00:00:30Z", now)).toBe(30);
    expect(secondsBetween(null, null, now)).toBeNull();
  });

  it("relative times read naturally", () => {
    const now = Date.parse("2026-11-22T12:00:00Z");
    expect(formatRelative("2026-11-22T11:59:50Z", now)).toBe("just now");
    expect(formatRelative("2026-11-22T11:55:00Z", now)).toBe("5 minutes ago");
    expect(formatRelative("2026-11-22T09:00:00Z", now)).toBe("3 hours ago");
    expect(formatRelative("2026-11-21T12:00:00Z", now)).toBe("yesterday");
    expect(formatDay("2026-11-22")).toBe("Nov 22");
  });

  it("tokens, money and shares", () => {
    expect(formatTokens(9_999)).toBe("9,999");
    expect(formatTokens(12_345)).toBe("12.3K");
    expect(formatUsd(0)).toBe("$0");
    expect(formatUsd(0.0042)).toBe("$0.0042");
    expect(formatUsd(1.266)).toBe("$1.27");
    expect(formatUsd(null)).toBe("—");
    expect(formatPercent(0.125)).toBe("12.5%");
  });

  it("ids shorten to their first block", () => {
    expect(shortId("7149091b-a2f1-4d40-ad33-bfa9507a5e4a")).toBe("7149091b");
  });
});
