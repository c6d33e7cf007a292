import path from "node:path";
import { cruise, type ICruiseResult, type IViolation } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import { beforeAll, describe, expect, it } from "vitest";

// The layering of docs/architecture.md, as .dependency-cruiser.cjs writes it: no import cycle,
// no import of a layer above. Each violation prints as `from → to  (rule)`.
const ROOT = path.resolve(import.meta.dirname, "../..");
const SOURCES = ["app", "components", "lib", "scripts", "instrumentation.ts", "proxy.ts"];

let result: ICruiseResult;

beforeAll(async () => {
  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    const options = await extractDepcruiseOptions("./.dependency-cruiser.cjs");
    const { output } = await cruise(SOURCES, options);
    if (typeof output === "string") throw new Error(output);
    result = output;
  } finally {
    process.chdir(cwd);
  }
}, 180_000);

function describeViolation(v: IViolation): string {
  const cycle = v.cycle?.length ? `  via ${v.cycle.map((c) => c.name).join(" → ")}` : "";
  return `${v.from} → ${v.to}  (${v.rule.name})${cycle}`;
}

describe("layers", () => {
  it("reads the sources: an empty graph would pass any rule", () => {
    expect(result.summary.totalCruised).toBeGreaterThan(400);
  });

  it("no cycle, and no import of a layer above", () => {
    expect(result.summary.violations.map(describeViolation).join("\n")).toBe("");
  });

  it("every excepted import still exists, so the list only shrinks", () => {
    const edges = new Set(
      result.modules.flatMap((m) => m.dependencies.map((d) => `${m.source} → ${d.resolved}`)),
    );
    const excepted = (result.summary.ruleSetUsed?.forbidden ?? []).flatMap((rule) => {
      if (!rule.comment?.startsWith("excepted") || !("to" in rule)) return [];
      // The rule's patterns are ^file$ (dots escaped), joined with |: back to file names.
      const names = (p: unknown) =>
        String(p)
          .split("|")
          .map((f) => f.slice(1, -1).replaceAll("\\.", "."));
      const [from] = names(rule.from.path);
      return names(rule.to.pathNot).map((to) => `${from} → ${to}`);
    });
    expect(excepted.length).toBeGreaterThan(0);
    expect(excepted.filter((e) => !edges.has(e))).toEqual([]);
  });
});
