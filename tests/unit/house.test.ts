import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { duplicatePairs } from "../../scripts/house/duplicates";
import {
  type Cast,
  type FunctionSpan,
  fileShape,
  folderOf,
  ROOT,
  sourceFiles,
} from "../../scripts/house/metrics";
import {
  CAST_BUDGET,
  DUPLICATE_CEILING,
  LONG_FUNCTIONS,
  MAX_FUNCTION_LINES,
} from "./house-budgets";

// The house's measures, held where a change can break them: `npm run house` prints them whole.
// Each budget is a ratchet: going over fails, and so does coming in under without lowering it,
// so that what one change saves the next cannot spend. house-budgets.ts says how to read each.
let casts: Cast[];
let functions: FunctionSpan[];

beforeAll(() => {
  const shapes = sourceFiles(["app", "components", "lib", "scripts"]).map(fileShape);
  casts = shapes.flatMap((s) => s.casts);
  functions = shapes.flatMap((s) => s.functions);
});

const listed = (cs: readonly Cast[]) => cs.map((c) => `${c.file}:${c.line}  ${c.text}`).join("\n");

describe("casts", () => {
  it("none on received or stored data: JSON.parse and response bodies are parsed, not asserted", () => {
    expect(listed(casts.filter((c) => c.onReceivedData))).toBe("");
  });

  it("lib/ and app/ stay within each folder's budget, and a folder that saved lowers its own", () => {
    const counts = new Map<string, Cast[]>();
    for (const c of casts.filter((c) => /^(lib|app)\//.test(c.file))) {
      counts.set(folderOf(c.file), [...(counts.get(folderOf(c.file)) ?? []), c]);
    }
    const wrong = [...new Set([...counts.keys(), ...Object.keys(CAST_BUDGET)])].flatMap(
      (folder) => {
        const found = counts.get(folder) ?? [];
        const budget = CAST_BUDGET[folder] ?? 0;
        if (found.length > budget) {
          return [`${folder}: ${found.length} casts, budget ${budget}:\n${listed(found)}`];
        }
        if (found.length < budget)
          return [`${folder}: ${found.length} casts: lower its budget to that`];
        return [];
      },
    );
    expect(wrong.join("\n\n")).toBe("");
    expect(Object.values(CAST_BUDGET).reduce((a, b) => a + b, 0)).toBeLessThan(100);
  });
});

describe("functions", () => {
  it(`are under ${MAX_FUNCTION_LINES} lines, but for the exceptions named in house-budgets.ts`, () => {
    const key = (f: FunctionSpan) => `${f.file} ${f.name}`;
    const long = functions.filter((f) => f.lines >= MAX_FUNCTION_LINES);
    const unexcused = long.filter((f) => !(key(f) in LONG_FUNCTIONS));
    expect(unexcused.map((f) => `${f.file}:${f.line} ${f.name}: ${f.lines} lines`)).toEqual([]);
    const stillLong = new Set(long.map(key));
    const outgrown = Object.keys(LONG_FUNCTIONS).filter((k) => !stillLong.has(k));
    expect(outgrown, "exceptions no longer needed: remove them").toEqual([]);
  });
});

describe("near-duplicates", () => {
  for (const [folder, ceiling] of Object.entries(DUPLICATE_CEILING)) {
    it(`${folder}: ${ceiling} file pairs share a run of six lines, no more (and no fewer)`, () => {
      const pairs = duplicatePairs(
        folder === "." ? ["app", "components", "lib", "scripts"] : [folder],
      );
      expect(pairs.length, pairs.map((p) => p.at).join("\n")).toBeLessThanOrEqual(ceiling);
      // Fewer: the change saved some; lower the ceiling so that the next cannot spend them.
      expect(pairs.length, `${folder}: lower DUPLICATE_CEILING to ${pairs.length}`).toBe(ceiling);
    });
  }
});

describe("the docs name every lib folder", () => {
  const folders = sourceFiles(["lib"])
    .map((f) => f.split("/")[1] ?? "")
    .filter((f) => !f.endsWith(".ts"));
  const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
  for (const doc of ["docs/how-it-works.md", "docs/architecture.md", ".dependency-cruiser.cjs"]) {
    it(doc, () => {
      const text = read(doc);
      const named = (f: string) => new RegExp(`lib/${f}(?![\\w-])`).test(text);
      expect([...new Set(folders)].filter((f) => !named(f))).toEqual([]);
    });
  }
});
