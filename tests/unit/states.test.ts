import { describe, expect, it } from "vitest";
import {
  assertTransition,
  CREWAI_STATE,
  EXECUTION_STATUSES,
  type ExecutionStatus,
  IllegalTransitionError,
  TERMINAL,
} from "@/lib/run-model/states";

const LEGAL: [ExecutionStatus, ExecutionStatus][] = [
  ["queued", "running"],
  ["queued", "cancelled"],
  ["queued", "error"],
  ["running", "running"],
  ["running", "pending_human_input"],
  ["running", "completed"],
  ["running", "error"],
  ["running", "cancelled"],
  ["pending_human_input", "running"],
  ["pending_human_input", "completed"],
  ["pending_human_input", "cancelled"],
  ["pending_human_input", "error"],
];

const ILLEGAL: [ExecutionStatus, ExecutionStatus][] = [
  ["completed", "running"],
  ["completed", "queued"],
  ["completed", "error"],
  ["completed", "cancelled"],
  ["completed", "pending_human_input"],
  ["cancelled", "completed"],
  ["cancelled", "running"],
  ["cancelled", "queued"],
  ["cancelled", "error"],
  ["cancelled", "pending_human_input"],
  ["queued", "pending_human_input"],
  ["queued", "completed"],
  ["running", "queued"],
  ["pending_human_input", "queued"],
  // error is terminal: it goes nowhere else
  ...EXECUTION_STATUSES.filter((s) => s !== "error").map(
    (s): [ExecutionStatus, ExecutionStatus] => ["error", s],
  ),
];

describe("assertTransition", () => {
  it.each(LEGAL)("%s → %s is legal", (from, to) => {
    expect(() => assertTransition(from, to)).not.toThrow();
  });

  it.each(ILLEGAL)("%s → %s throws IllegalTransitionError", (from, to) => {
    expect(() => assertTransition(from, to)).toThrow(IllegalTransitionError);
    expect(() => assertTransition(from, to)).toThrow(`execution cannot go from ${from} to ${to}`);
  });

  it("no terminal status leads anywhere else", () => {
    for (const from of TERMINAL) {
      for (const to of EXECUTION_STATUSES) {
        if (to === from) continue;
        expect(() => assertTransition(from, to), `${from} → ${to}`).toThrow(IllegalTransitionError);
      }
    }
  });

  it("every pair is covered by the tables above or is a self-move", () => {
    const key = ([a, b]: [string, string]) => `${a}>${b}`;
    const known = new Set([...LEGAL, ...ILLEGAL].map(key));
    for (const from of EXECUTION_STATUSES) {
      for (const to of EXECUTION_STATUSES) {
        if (from !== to) expect(known.has(key([from, to])), `${from} → ${to}`).toBe(true);
      }
    }
  });

  it("IllegalTransitionError is an Error", () => {
    try {
      assertTransition("completed", "running");
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(Error);
      expect(err).toBeInstanceOf(IllegalTransitionError);
    }
  });
});

describe("TERMINAL", () => {
  it("is completed, error and cancelled", () => {
    expect([...TERMINAL].sort()).toEqual(["cancelled", "completed", "error"]);
  });
});

describe("CREWAI_STATE", () => {
  it.each([
    ["queued", "PENDING"],
    ["running", "RUNNING"],
    ["pending_human_input", "RUNNING"],
    ["completed", "SUCCESS"],
    ["error", "FAILED"],
    ["cancelled", "FAILED"],
  ] as const)("%s is %s", (status, state) => {
    expect(CREWAI_STATE[status]).toBe(state);
  });

  it("maps every status, finished ones to a finished state and the others to an unfinished one", () => {
    expect(Object.keys(CREWAI_STATE).sort()).toEqual([...EXECUTION_STATUSES].sort());
    for (const status of EXECUTION_STATUSES) {
      const finished = CREWAI_STATE[status] === "SUCCESS" || CREWAI_STATE[status] === "FAILED";
      expect(finished, status).toBe(TERMINAL.has(status));
    }
  });
});

describe("a finished execution stays finished", () => {
  it.each(["completed", "error", "cancelled"] as const)("%s → %s is refused", (s) => {
    expect(() => assertTransition(s, s)).toThrow(IllegalTransitionError);
  });
});
