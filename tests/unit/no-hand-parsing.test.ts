import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Route handlers never read or validate a request body themselves: the route builder
// (lib/api/route.ts) parses it with the route's schema, so malformed JSON and a wrong type are
// 400 and a missing required field 422 on every route alike. Validation of anything else (a
// remote deployment's answer, a stored value) belongs in lib/.
const API = path.resolve(import.meta.dirname, "../../app/api");
const EXEMPT: Record<string, string> = {
  "bench/[crew]/kickoff/route.ts":
    "bench/kickoff.mjs's bare POST baseline (a 404 unless BENCH_ROUTES=1): must cost what a bare route costs",
};
const HAND_PARSING: [RegExp, string][] = [
  [/\b(request|req)\.json\(/, "request.json()"],
  [/\.text\(\)/, ".text()"],
  [/\bJSON\.parse\(/, "JSON.parse"],
  [/\b(readJsonBody|readTextBody|parseJsonText|requireObject)\(/, "the body readers of lib/http"],
  [/\.(safeParse|parse|parseAsync|safeParseAsync)\(/, "a zod parse"],
];

function routes(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return routes(full);
    return /\.tsx?$/.test(e.name) ? [full] : [];
  });
}

describe("no route parses a body by hand", () => {
  const files = routes(API);
  it("finds the routes", () => expect(files.length).toBeGreaterThanOrEqual(30));

  it("knows what hand parsing looks like", () => {
    const sample =
      "const b = NewUserSchema.safeParse(requireObject(await readJsonBody(request, 9)));";
    expect(HAND_PARSING.filter(([re]) => re.test(sample)).length).toBe(2);
  });

  for (const file of files) {
    const name = path.relative(API, file);
    if (EXEMPT[name]) continue;
    it(name, () => {
      const source = fs.readFileSync(file, "utf8");
      const found = HAND_PARSING.filter(([re]) => re.test(source)).map(([, what]) => what);
      expect(found, `${name} parses by hand; give the route builder a body schema`).toEqual([]);
    });
  }
});
