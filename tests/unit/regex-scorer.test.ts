import { beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import { ExperimentCreateSchema } from "@/lib/contract/experiments";
import { loadCrews } from "@/lib/crew/load-crews";
import type { CrewDef } from "@/lib/crew/schema";
import { AppError } from "@/lib/errors";
import { createExperiment } from "@/lib/experiments/create-experiment";
import { createDataset } from "@/lib/experiments/datasets";
import { checkScore, type RunOutcome } from "@/lib/experiments/scorers";
import { testPattern } from "@/lib/util/linear-regex";
import { embeddedDbForFile } from "../support/embedded-db";
import { FIXTURE_CREWS } from "../support/harness";

// An experiment's `regex` scorer is a pattern from the API, run on model output. A backtracking
// RegExp takes exponential time on patterns like (a|a)*b and held the server 125 s; the scorer
// runs on a linear-time engine (RE2), off the event loop with a deadline, and what RE2 cannot
// run is a 422 at save.

const file = embeddedDbForFile("regex-scorer");
const org: Principal = { kind: "org", tokenId: null };
let brief: CrewDef;
beforeAll(async () => {
  brief = loadCrews(FIXTURE_CREWS).crews.get("brief") as CrewDef;
  await createDataset(file.db, "brief", org, { name: "d" }, [
    { inputs: { topic: "tides", audience: "kids" }, expected: {} },
  ]);
});

async function refusal(pattern: string, flags?: string) {
  const body = ExperimentCreateSchema.parse({
    name: "e",
    dataset: "d",
    variants: ["current"],
    reviews: "wait",
    scorers: [
      { type: "contains", value: "x" },
      { type: "regex", pattern, flags },
    ],
  });
  const err = await createExperiment(
    file.db,
    brief,
    org,
    { crew: "brief", owner: null },
    body,
  ).then(
    () => new Error(`expected /${pattern}/ to be refused`),
    (e: unknown) => e,
  );
  if (!(err instanceof AppError)) throw err;
  const errors = err.details.errors as { path: string; message: string }[];
  return { status: err.status, errors };
}

const outcome = (result: string): RunOutcome => ({
  status: "completed",
  result,
  tasks: [],
  latency_s: 1,
  tokens: 10,
  cost_usd: 0,
  guardrails: {},
});
const score = async (pattern: string, text: string, flags?: string) =>
  await checkScore({ type: "regex", pattern, flags }, outcome(text), brief, {});

describe("a regex scorer at save", () => {
  it("refuses a backreference, naming the field and what is unsupported", async () => {
    const r = await refusal("(a+)+\\1b");
    expect(r.status).toBe(422);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]?.path).toBe("scorers.1.pattern");
    expect(r.errors[0]?.message).toContain("backreference (\\1)");
    expect(r.errors[0]?.message).toContain("RE2");
    expect((await refusal("(?<w>a)\\k<w>")).errors[0]?.message).toContain("backreference");
  });

  it("refuses lookarounds, and says so", async () => {
    for (const [pattern, what] of [
      ["foo(?=bar)", "lookahead"],
      ["foo(?!bar)", "lookahead"],
      ["(?<=a)b", "lookbehind"],
      ["(?<!a)b", "lookbehind"],
    ]) {
      const r = await refusal(pattern as string);
      expect(r.errors.map((e) => e.path)).toEqual(["scorers.1.pattern"]);
      expect(r.errors[0]?.message).toContain(what);
    }
  });

  it("refuses a pattern that compiles to more steps than the cap", async () => {
    const r = await refusal("[ab]{1000}[ab]{1000}c");
    expect(r.errors.map((e) => e.path)).toEqual(["scorers.1.pattern"]);
    expect(r.errors[0]?.message).toMatch(/compiles to \d+ steps; at most 2000/);
  });

  it("still refuses malformed syntax", async () => {
    expect((await refusal("(")).errors.map((e) => e.path)).toEqual(["scorers.1.pattern"]);
  });
});

describe("a regex scorer on output", () => {
  it("answers patterns that make a backtracking engine take exponential time", async () => {
    // A backtracking RegExp does not finish these in any useful time (2^50000 paths).
    const as = "a".repeat(50_000);
    expect(await score("(a|a)*b", as)).toEqual({ value: 0, reason: "does not match" });
    expect(await score("(a*)*b", as)).toEqual({ value: 0, reason: "does not match" });
    expect(await score("(a+)+$", as)).toEqual({ value: 1, reason: "matches" });
    expect(await score("(a|a)*b", `${as}b`)).toEqual({ value: 1, reason: "matches" });
  });

  it("keeps the flags i, m, s and u, and JavaScript's \\u escapes", async () => {
    expect((await score("^the", "The tide", "i")).value).toBe(1);
    expect((await score("^the", "The tide")).value).toBe(0);
    expect((await score("^b$", "a\nb", "m")).value).toBe(1);
    expect((await score("^b$", "a\nb")).value).toBe(0);
    expect((await score("a.b", "a\nb", "s")).value).toBe(1);
    expect((await score("a.b", "a\nb")).value).toBe(0);
    expect((await score("^.$", "😀", "u")).value).toBe(1);
    expect((await score("caf\\u00e9", "café")).value).toBe(1);
  });

  it("records a cell whose output is longer than a pattern reads, with why", async () => {
    const s = await score("tide", "x".repeat(100_001));
    expect(s).toEqual({
      value: null,
      reason: "not scored: the text is 100,001 characters; a pattern reads at most 100,000",
    });
  });

  it("scores a pattern saved before RE2 (a backreference) as not scored, with why", async () => {
    const s = await score("(a)\\1", "aa");
    expect(s.value).toBeNull();
    expect(s.reason).toContain("backreference");
  });
});

describe("the linear-time engine", () => {
  // Case-folded letter classes are RE2's slowest steps: seconds over 100,000 characters.
  const slow = "(?:\\p{L}[\\p{L} ]{300}\\p{Lu})z";
  const text = "ab c".repeat(25_000);

  it("runs off the event loop: timers fire while a pattern runs", async () => {
    let settled = false;
    const match = testPattern(slow, "i", text).then((r) => {
      settled = true;
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(settled).toBe(false);
    await match;
  });

  it("gives up on a job past its deadline, and runs the next on a fresh worker", async () => {
    const late = await testPattern(slow, "i", text, { deadlineMs: 1 });
    expect(late).toEqual({
      error: "the pattern took longer than 1 ms on this text, its deadline",
    });
    expect(await testPattern("c$", "", "abc")).toEqual({ matched: true });
  });

  it("takes an answer heard after the deadline as late, whichever the event loop hears first", async () => {
    expect(await testPattern("c$", "", "abc")).toEqual({ matched: true }); // the worker is up
    // Sent from a timer that then holds the thread: the answer is in before the loop's next turn
    // of timers, where the deadline's own timer waits.
    const late = await new Promise((resolve) => {
      setTimeout(() => {
        resolve(testPattern("c$", "", "abc", { deadlineMs: 5 }));
        const until = performance.now() + 300;
        while (performance.now() < until);
      }, 0);
    });
    expect(late).toEqual({ error: "the pattern took longer than 5 ms on this text, its deadline" });
  });
});
