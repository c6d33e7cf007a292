import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Every API route is made with the one builder (lib/api/route.ts: route, apiRoute, crewRoute, runRoute,
// integrationRoute), so none can skip the drain check, the caller, the rate limit, input parsing
// or the one problem shape. The few that do not are listed here with the reason.
const API = path.resolve(import.meta.dirname, "../../app/api");
const EXEMPT: Record<string, string> = {
  "healthz/route.ts": "liveness: no caller, no database, must answer while draining",
  "openapi.json/route.ts": "a static public document",
  "bench/[crew]/status/[id]/route.ts":
    "bench/status.mjs's bare baseline (a 404 unless BENCH_ROUTES=1): must cost what a bare route costs",
  "bench/[crew]/kickoff/route.ts":
    "bench/kickoff.mjs's bare POST baseline (a 404 unless BENCH_ROUTES=1): must cost what a bare route costs",
  "auth/[...nextauth]/route.ts": "next-auth's own handlers",
  "integrations/linear/callback/route.ts": "a browser redirect: every outcome is a page, not JSON",
};

function routes(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return routes(full);
    return e.name === "route.ts" ? [full] : [];
  });
}

describe("every API route is built with the route builder", () => {
  const files = routes(API);
  it("finds the routes", () => expect(files.length).toBeGreaterThanOrEqual(30));

  for (const file of files) {
    const name = path.relative(API, file);
    if (EXEMPT[name]) continue;
    it(name, () => {
      const source = fs.readFileSync(file, "utf8");
      // Handlers are builder results, never hand-written functions with their own try/catch.
      expect(source).not.toMatch(/export (async )?function (GET|POST|PUT|PATCH|DELETE)\b/);
      expect(source).not.toMatch(/toProblem|trackerErrorResponse/);
      expect(source).toMatch(
        /\b(route|apiRoute|crewRoute|runRoute|integrationRoute|refusingRoute|otherMethods)[<(]/,
      );
    });
  }
});
