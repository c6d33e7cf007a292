import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CEL_COST_LIMIT, Cel, CelBudget, CelCostError } from "@/lib/util/cel";
import { KNOWN_FUNCTIONS } from "@/lib/util/cel-function-cost";
import { fromCel, toCel } from "@/lib/util/cel-values";

// lib/util/cel.ts is the one door to CEL: every evaluation is costed there before it runs, and
// refused past its budget. Each case below would, before the limit, have run for seconds to
// hours (or held gigabytes) on the event loop; now it is refused before anything runs.

const ROOT = path.resolve(import.meta.dirname, "../..");
const DOOR = ["lib/util/cel.ts", "lib/util/cel-cost.ts"];

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" ? [] : sources(full);
    return /\.(ts|tsx|mts|mjs|js)$/.test(e.name) ? [full] : [];
  });
}

const cel = new Cel({ variables: { payload: "dyn" }, homogeneousLiterals: false });
const run = (source: string, payload: unknown = {}) =>
  fromCel(cel.evaluate(source, { payload: toCel(payload) }));

describe("the one door to CEL", () => {
  it("no module but lib/util/cel.ts (and its estimate's types) imports cel-js", () => {
    const offenders = ["lib", "app", "components", "scripts", "tests", "bench"]
      .flatMap((d) => sources(path.join(ROOT, d)))
      .map((f) => path.relative(ROOT, f).split(path.sep).join("/"))
      .filter((f) => !DOOR.includes(f))
      .filter((f) => /["']@marcbachmann\/cel-js/.test(fs.readFileSync(path.join(ROOT, f), "utf8")));
    expect(offenders).toEqual([]);
  });

  it("the estimate prices every function and macro cel-js has", () => {
    const unknown = [...new Cel().functionNames()].filter((n) => !KNOWN_FUNCTIONS.has(n));
    expect(unknown).toEqual([]);
  });
});

describe("CEL's cost limit", () => {
  const ten = "[0,1,2,3,4,5,6,7,8,9]";

  it("refuses nested macros over literals before running them", () => {
    // 10⁸ turns of the innermost body.
    const nested = Array.from("abcdefgh").reduce((body, v) => `${ten}.map(${v}, ${body})`, "0");
    expect(() => run(nested)).toThrow(CelCostError);
    expect(() => run(nested)).toThrow(/exceeded its cost limit of 1,000,000/);
    expect(cel.leastCost(nested)).toBeGreaterThan(CEL_COST_LIMIT);
  });

  it("refuses nested macros over a 300-item payload, and lets 30 items through", () => {
    const cube = "payload.map(a, payload.map(b, payload.exists(c, c == a + b + 1000)))";
    const items = (n: number) => Array.from({ length: n }, (_, i) => i);
    // 27 million turns of a 12-step body: some hundreds of millions.
    expect(() => run(cube, items(300))).toThrow(/could cost up to \d{3},\d{3},\d{3}\./);
    expect(run(cube, items(30))).toHaveLength(30);
    // Nothing in the text is costly by itself: saving it is fine.
    expect(cel.leastCost(cube)).toBeLessThan(100);
  });

  it("counts what `+` copies: a list four times itself, twelve times over, is refused", () => {
    // 4¹³ items: 67 million references, half a gigabyte.
    const letters = Array.from("abcdefghijklm");
    const doubled = letters.reduceRight((body, v, i) => {
      const before = letters[i - 1] ?? "";
      const value = i ? Array(4).fill(before).join(" + ") : "[1, 2, 3, 4]";
      return `cel.bind(${v}, ${value}, ${body})`;
    }, "size(m)");
    expect(() => run(doubled)).toThrow(CelCostError);
    expect(cel.leastCost(doubled)).toBeGreaterThan(CEL_COST_LIMIT);
  });

  it("counts the result copied out: a list of the same large list many times", () => {
    const many = `[${Array(200).fill("payload").join(", ")}]`;
    const big = Array.from({ length: 10_000 }, (_, i) => `item ${i}`);
    expect(() => run(many, big)).toThrow(CelCostError);
    expect(run(many, ["a"])).toHaveLength(200);
  });

  it("tells a small list from a large one beside it: ordinary mappings pass", () => {
    const payload = {
      labels: [{ name: "bug" }, { name: "p1" }],
      commits: Array.from({ length: 5_000 }, (_, i) => ({
        id: `c${i}`,
        message: `${i % 7 ? "add" : "fix"}: ${"x".repeat(2_000)}`,
        files: ["a.ts", "b.ts"],
      })),
      body: "y".repeat(500_000),
    };
    const ordinary = [
      "payload.commits.map(c, c.id).size()",
      "payload.commits.filter(c, c.message.startsWith('fix')).size()",
      "payload.labels.exists(l, l.name == 'bug')",
      "payload.labels.map(l, payload.commits.filter(c, c.files.exists(f, f == l.name)).size())",
      "payload.body.contains('needle') || payload.body.size() > 10",
      "payload.commits.all(c, c.files.all(f, f.endsWith('.ts')))",
    ];
    const context = { payload: toCel(payload) };
    for (const source of ordinary) expect(cel.cost(source, context)).toBeLessThan(CEL_COST_LIMIT);
    expect(run(ordinary[1] ?? "", payload)).toBe(715);
    expect(run(ordinary[3] ?? "", payload)).toEqual([0, 0]);
  });

  it("shares a budget: what the first evaluation spent, the second cannot", () => {
    const budget = new CelBudget(1_000);
    const source = "payload.map(x, x + 1)";
    const payload = { payload: toCel(Array.from({ length: 100 }, (_, i) => i)) };
    expect(fromCel(cel.evaluate(source, payload, budget))).toHaveLength(100);
    expect(() => cel.evaluate(source, payload, budget)).toThrow(/left after the ones before/);
  });
});

describe("matches runs on RE2, in linear time", () => {
  it("answers a catastrophic pattern at once, where RegExp backtracks for hours", () => {
    // 2⁴⁰ ways to split the a's between the groups, for a backtracking engine.
    expect(run(`payload.matches("(a+)+b")`, `${"a".repeat(40)}!`)).toBe(false);
    expect(run(`payload.matches("^(a+)+!$")`, `${"a".repeat(40)}!`)).toBe(true);
  });

  it("keeps RE2's syntax: no backreferences, with a clear message", () => {
    expect(() => run(`"aa".matches("(a)\\\\1")`)).toThrow(/not an RE2 pattern/);
    // However it is spaced, and on a parenthesised receiver.
    expect(run(`("fix: x") . matches ( '^fix' ) && payload.matches("b")`, "abc")).toBe(true);
  });
});
