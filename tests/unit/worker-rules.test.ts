import { describe, expect, it } from "vitest";
import {
  CLAIMS_WORK,
  claimFailed,
  claimWorked,
  lostLeases,
  outageNapMs,
  renewalIntervalMs,
} from "@/lib/engine/worker-rules";

// What a worker decides apart from the database: the runs whose lease it lost, one line per
// spell of failed claims, and how long it waits.

describe("leases", () => {
  it("are lost for the runs a renewal did not extend", () => {
    expect(lostLeases(["a", "b", "c"], new Set(["b"]))).toEqual(["a", "c"]);
    expect(lostLeases(["a"], new Set(["a", "z"]))).toEqual([]);
    expect(lostLeases([], new Set())).toEqual([]);
  });

  it("are renewed three times a lease, never more than every 50 ms", () => {
    expect(renewalIntervalMs(30_000)).toBe(10_000);
    expect(renewalIntervalMs(1_000)).toBe(333);
    expect(renewalIntervalMs(150)).toBe(50);
    expect(renewalIntervalMs(90)).toBe(50);
  });
});

describe("a spell of failed claims", () => {
  const broken = { message: "relation missing", connection: false };
  const offline = { message: "ECONNREFUSED", connection: true };

  it("is said once, when it starts, and its end is said too", () => {
    const first = claimFailed(CLAIMS_WORK, broken, 1000);
    expect(first).toEqual({
      spell: { downSince: 1000, reported: true },
      line: "[worker] cannot claim work: relation missing",
    });
    const second = claimFailed(first.spell, broken, 2000);
    expect(second).toEqual({ spell: { downSince: 1000, reported: true }, line: undefined });
    expect(claimWorked(second.spell)).toEqual({
      spell: CLAIMS_WORK,
      line: "[worker] claiming work again",
    });
  });

  it("says nothing for a lost connection, which the database reports itself", () => {
    const down = claimFailed(CLAIMS_WORK, offline, 1000);
    expect(down).toEqual({ spell: { downSince: 1000, reported: false }, line: undefined });
    // Another error in the same spell is not its start: still nothing.
    expect(claimFailed(down.spell, broken, 2000).line).toBeUndefined();
    expect(claimWorked(down.spell)).toEqual({ spell: CLAIMS_WORK, line: undefined });
  });

  it("waits at least two seconds between tries", () => {
    expect(outageNapMs(50)).toBe(2_000);
    expect(outageNapMs(5_000)).toBe(5_000);
  });
});
