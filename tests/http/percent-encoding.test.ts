import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { call, crewClient, expectProblem } from "../support/api";
import { TEST_CREW_TOKEN } from "../support/harness";

// A path segment that is not valid percent-encoding is the client's mistake: a 400 problem on
// every API route, whatever the method and whoever asks, never a 500. `%25` is a well-formed "%",
// decoded once: whatever the route says about it, never a 500.
const baseUrl = inject("baseUrl");
const API = path.resolve(import.meta.dirname, "../../app/api");
const ZERO_UUID = "00000000-0000-4000-8000-000000000000";
const MALFORMED = ["%ff", "%", "%E0%A4%A"];
const WELL_FORMED = ["%25"];
const FILLER: Record<string, string> = { crew: "brief", name: "x.md", path: "nothing" };

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return routeFiles(full);
    return e.name === "route.ts" ? [full] : [];
  });
}

/** The methods a route file exports: `export const GET`, `export { x as GET }`, `{ POST } =`. */
function methodsOf(source: string): string[] {
  const found = new Set<string>();
  const word = /\b(GET|POST|PUT|PATCH|DELETE)\b/g;
  for (const m of source.matchAll(/export\s+(?:const|async\s+function|function)\s+(\w+)/g))
    if (m[1]?.match(word)) found.add(m[1]);
  for (const m of source.matchAll(/export\s+(?:const\s+)?\{([^}]*)\}/g))
    for (const w of (m[1] ?? "").matchAll(word)) found.add(w[1] as string);
  return [...found];
}

type Route = { file: string; segments: string[]; methods: string[] };
const routes: Route[] = routeFiles(API).map((file) => ({
  file: path.relative(API, file),
  segments: path.relative(API, path.dirname(file)).split(path.sep),
  methods: methodsOf(fs.readFileSync(file, "utf8")),
}));
const paramName = (segment: string) => segment.match(/^\[{1,2}(?:\.\.\.)?(\w+)\]{1,2}$/)?.[1];
const withParams = routes.filter((r) => r.segments.some(paramName));

/** Each path parameter of the route in turn set to `bad`, the others to plausible values. */
function pathsFor(route: Route, bad: string): string[] {
  const fill = route.segments.map((s) => {
    const name = paramName(s);
    return name ? (FILLER[name] ?? ZERO_UUID) : s;
  });
  return route.segments.flatMap((s, i) =>
    paramName(s) ? [`/api/${fill.map((f, j) => (j === i ? bad : f)).join("/")}`] : [],
  );
}

it("finds the routes, their path parameters and methods", () => {
  expect(withParams.length).toBeGreaterThanOrEqual(20);
  for (const r of routes) expect(r.methods, r.file).not.toEqual([]);
});

for (const [who, token] of [
  ["no token", undefined],
  ["a valid token", TEST_CREW_TOKEN],
] as const) {
  describe(`every API route's path parameters, with ${who}`, () => {
    for (const route of withParams) {
      it(route.file, async () => {
        const wrong: string[] = [];
        for (const method of route.methods) {
          const body = ["GET", "DELETE"].includes(method) ? undefined : {};
          for (const bad of [...MALFORMED, ...WELL_FORMED]) {
            for (const p of pathsFor(route, bad)) {
              const r = await call(baseUrl, method, p, { token, body });
              const malformed = MALFORMED.includes(bad);
              const problem = r.headers.get("content-type")?.includes("application/problem+json");
              if (malformed ? r.status !== 400 || !problem : r.status >= 500)
                wrong.push(`${method} ${p} → ${r.status} ${r.text.slice(0, 80)}`);
            }
          }
        }
        expect(wrong).toEqual([]);
      });
    }
  });
}

describe("a run's file names are decoded once", () => {
  let id: string;
  const file = (name: string) =>
    call(baseUrl, "GET", `/api/crews/checked/executions/${id}/artifacts/${name}`, {
      token: TEST_CREW_TOKEN,
    });

  beforeAll(async () => {
    const client = crewClient(baseUrl, "checked", TEST_CREW_TOKEN);
    id = await client.start({ product: "Acme kettle" });
    const done = await client.waitFor(id, (s) => s.status === "completed" || s.status === "error");
    expect(done.status, done.result).toBe("completed");
  });

  it("an encoded name is found; `%25` is a file named '%', which there is not", async () => {
    expect((await file("summary%2Emd")).status).toBe(200);
    expectProblem(await file("%25"), 404);
    expectProblem(await file("%2525"), 404);
    expectProblem(await file("%ff"), 400);
  });
});
