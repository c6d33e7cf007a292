import path from "node:path";
import { cruise, type ICruiseResult, type IViolation } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import { beforeAll, describe, expect, it } from "vitest";
import { type Edge, tsxEdges } from "../../scripts/house/tsx-imports";

// The layering of docs/architecture.md, as .dependency-cruiser.cjs writes it: no import cycle,
// no import of a layer above. Each violation prints as `from → to  (rule)`. dependency-cruiser
// reads the .ts files; the .tsx files' imports are read with oxc (scripts/house/tsx-imports.ts)
// and held to the same rules here.
const ROOT = path.resolve(import.meta.dirname, "../..");
const SOURCES = ["app", "components", "lib", "scripts", "instrumentation.ts", "proxy.ts"];

let result: ICruiseResult;
let tsx: Edge[];

beforeAll(async () => {
  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    const options = await extractDepcruiseOptions("./.dependency-cruiser.cjs");
    const { output } = await cruise(SOURCES, options);
    if (typeof output === "string") throw new Error(output);
    result = output;
    tsx = tsxEdges(SOURCES.filter((s) => !s.includes(".")));
  } finally {
    process.chdir(cwd);
  }
}, 180_000);

function describeViolation(v: IViolation): string {
  const cycle = v.cycle?.length ? `  via ${v.cycle.map((c) => c.name).join(" → ")}` : "";
  return `${v.from} → ${v.to}  (${v.rule.name})${cycle}`;
}

type Rule = NonNullable<NonNullable<ICruiseResult["summary"]["ruleSetUsed"]>["forbidden"]>[number];
type Pattern = string | string[] | undefined;
// The config's patterns as dependency-cruiser hands them back: one regex or a list; an empty
// one (an empty list, joined) stands for none.
const anyOf = (pattern: Pattern, file: string) =>
  [pattern ?? []]
    .flat()
    .filter((p) => p !== "")
    .some((p) => new RegExp(p).test(file));

/** Whether an edge breaks a rule of the config's that is about paths (cycles are found below). */
function breaks(rule: Rule, edge: Edge): boolean {
  if (!("to" in rule) || "circular" in rule.to) return false;
  const { from, to } = rule;
  return (
    (from.path === undefined || anyOf(from.path, edge.from)) &&
    !anyOf(from.pathNot, edge.from) &&
    ("path" in to ? to.path === undefined || anyOf(to.path, edge.to) : true) &&
    !("pathNot" in to && anyOf(to.pathNot, edge.to))
  );
}

/** The import cycles of a graph (Tarjan's strongly connected components of two or more). */
function cycles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v) ?? 0);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) {
      onStack.delete(w);
      component.push(w);
    }
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("layers", () => {
  it("reads the sources: an empty graph would pass any rule", () => {
    expect(result.summary.totalCruised).toBeGreaterThan(400);
  });

  it("no cycle, and no import of a layer above", () => {
    expect(result.summary.violations.map(describeViolation).join("\n")).toBe("");
  });

  it("reads the .tsx files' imports: a reader that found none would pass any rule", () => {
    expect(tsx.length).toBeGreaterThan(800);
    const seen = new Set(tsx.map((e) => `${e.from} → ${e.to}`));
    // Edges of each kind that must always be read: an alias, a relative path, a type import.
    expect(
      [
        "app/(dashboard)/layout.tsx → components/shell/app-shell.tsx",
        "app/(dashboard)/layout.tsx → lib/auth/session.ts",
        "components/run/run-view.tsx → components/ui/alert.tsx",
      ].filter((e) => !seen.has(e)),
    ).toEqual([]);
  });

  it("the .tsx files import no layer above their own, and close no cycle", () => {
    const rules = (result.summary.ruleSetUsed?.forbidden ?? []).filter(
      (r) => r.severity === "error",
    );
    expect(rules.length).toBeGreaterThan(20);
    const broken = tsx.flatMap((edge) =>
      rules
        .filter((rule) => breaks(rule, edge))
        .map((r) => `${edge.from} → ${edge.to}  (${r.name})`),
    );
    expect(broken.join("\n")).toBe("");
    const cruised = result.modules.flatMap((m) =>
      m.dependencies
        .filter((d) => !d.coreModule && !d.couldNotResolve && !d.resolved.includes("node_modules"))
        .map((d) => ({ from: m.source, to: d.resolved })),
    );
    expect(cycles([...cruised, ...tsx]).map((c) => c.join(" → "))).toEqual([]);
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
