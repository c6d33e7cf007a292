import fs from "node:fs";
import path from "node:path";
import { validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { BROWSER_ONLY, openApiDocument } from "@/lib/api/openapi";

// /api/openapi.json must be a valid OpenAPI 3.1 document and describe every route a program may
// call. The routes are read from app/api itself, so a route added without documenting it fails here.

const API = path.resolve(import.meta.dirname, "../../app/api");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;

// Routes (folders under app/api) deliberately left out of the document, and why.
const NOT_DOCUMENTED: Record<string, string> = {
  // next-auth's sign-in form posts, OAuth callbacks, CSRF token and session: the browser's.
  "auth/[...nextauth]": "browser only",
  // Connect Linear: redirects the signed-in administrator's browser to Linear's consent page.
  "integrations/linear/connect": "browser only",
  // Linear sends the browser back here after consent; every outcome is a redirect to a page.
  "integrations/linear/callback": "browser only",
  // bench/status.mjs's baseline (a constant body behind /status's path shape): 404 unless
  // BENCH_ROUTES=1, which no deployment sets.
  "bench/[crew]/status/[id]": "benchmark only, off by default",
  // bench/kickoff.mjs's baseline (a bare POST of /kickoff's shape): 404 unless BENCH_ROUTES=1.
  "bench/[crew]/kickoff": "benchmark only, off by default",
  // The catch-all: any path that is no endpoint gets a 404 problem (said in the description).
  "[[...path]]": "not an endpoint",
};

type Doc = ReturnType<typeof openApiDocument>;
const doc = () => structuredClone(openApiDocument()) as Doc;

// The document as plain JSON, for breaking it on purpose.
type Op = {
  [field: string]: unknown;
  parameters?: Record<string, unknown>[];
  responses: Record<string, unknown>;
};
type Loose = { paths: Record<string, Record<string, Op>> };
const listRuns = (d: Loose) => d.paths["/api/runs"]?.get ?? expect.unreachable("GET /api/runs");
const pathParameter = (d: Loose) =>
  Object.values(d.paths)
    .flatMap((item) => Object.values(item))
    .flatMap((op) => op.parameters ?? [])
    .find((p) => p.in === "path") ?? expect.unreachable("a path parameter");

/** The HTTP methods a route module exports handlers for, read from its source. */
function exportedMethods(source: string): string[] {
  const found = new Set<string>();
  const isMethod = (name: string) => (METHODS as readonly string[]).includes(name);
  // export const GET = …; export (async) function GET(…)
  for (const [, name = ""] of source.matchAll(
    /export\s+(?:const|let|async\s+function|function)\s+([A-Z]+)\b/g,
  ))
    if (isMethod(name)) found.add(name);
  // export const { GET, POST } = handlers; but otherMethods("GET") makes only 405 answers.
  for (const [, names = "", from] of source.matchAll(/export\s+const\s*\{([^}]*)\}\s*=\s*(\w+)/g)) {
    if (from === "otherMethods") continue;
    for (const name of names.split(",").map((n) => n.split(":").at(-1)?.trim() ?? ""))
      if (isMethod(name)) found.add(name);
  }
  // export { handler as GET, POST }
  for (const [, names = ""] of source.matchAll(/export\s*\{([^}]*)\}/g))
    for (const name of names.split(",").map(
      (n) =>
        n
          .split(/\s+as\s+/)
          .at(-1)
          ?.trim() ?? "",
    ))
      if (isMethod(name)) found.add(name);
  return [...found].sort();
}

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return routeFiles(full);
    return e.name === "route.ts" ? [full] : [];
  });
}

/** `/api/crews/{crew}/status/{kickoff_id}` and `crews/[crew]/status/[id]` compare equal. */
const normalize = (template: string) => template.replace(/\{[^}]+\}/g, "{}");
const templateOf = (folder: string) =>
  normalize(
    `/api/${folder
      .split(path.sep)
      .filter((s) => !/^\(.*\)$/.test(s)) // route groups are not in the URL
      .map((s) => s.replace(/^\[(.+)\]$/, "{$1}"))
      .join("/")}`,
  );

const routes = routeFiles(API).map((file) => {
  const folder = path.relative(API, path.dirname(file));
  return {
    folder,
    template: templateOf(folder),
    methods: exportedMethods(fs.readFileSync(file, "utf8")),
  };
});

function documented(d: Doc) {
  return new Set(
    Object.entries(d.paths).flatMap(([template, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${normalize(template)}`),
    ),
  );
}

describe("reading a route module's methods", () => {
  it.each([
    ["export const GET = apiRoute(async () => x);", ["GET"]],
    ["export async function GET(request: Request) {}", ["GET"]],
    ["export function POST() {}", ["POST"]],
    [
      'export const GET = crewRoute(h);\nexport const { POST, PUT } = otherMethods("GET");',
      ["GET"],
    ],
    ["export const { GET } = handlers;\nexport const POST = wrap(handlers.POST);", ["GET", "POST"]],
    ["export {\n  notFound as DELETE,\n  notFound as GET,\n};", ["DELETE", "GET"]],
    ['export const dynamic = "force-dynamic";', []],
  ])("%s", (source, methods) => expect(exportedMethods(source)).toEqual(methods));
});

describe("/api/openapi.json", () => {
  it("is valid OpenAPI 3.1 for @readme/openapi-parser", async () => {
    const result = await validate(doc() as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  // The one validator checks the OpenAPI 3.1 schema and the rules a schema cannot say; each
  // breakage here must fail it, or a broken document would pass the test above.
  it.each<[string, (d: Loose) => void]>([
    ["a dangling $ref", (d) => (listRuns(d).responses["200"] = { $ref: "#/components/x/Nope" })],
    ["a field OpenAPI does not define", (d) => (listRuns(d).bogus = 1)],
    ["an optional path parameter", (d) => (pathParameter(d).required = false)],
  ])("rejects %s", async (_, breakIt) => {
    const broken = doc() as unknown as Loose;
    breakIt(broken);
    expect((await validate(broken as never)).valid).toBe(false);
  });

  it("a path parameter that its path does not contain is rejected (the validator sees it)", async () => {
    const broken = doc() as unknown as {
      paths: Record<string, { get: { parameters: unknown[] } }>;
    };
    broken.paths["/api/runs"]?.get.parameters.push({
      name: "crew",
      in: "path",
      required: true,
      schema: { type: "string" },
    });
    expect((await validate(broken as never)).valid).toBe(false);
  });

  it("finds the routes", () => expect(routes.length).toBeGreaterThanOrEqual(35));

  it("describes every method of every route a program may call", () => {
    const have = documented(doc());
    const missing = routes
      .filter((r) => !NOT_DOCUMENTED[r.folder])
      .flatMap((r) => r.methods.map((m) => `${m} ${r.template}`))
      .filter((op) => !have.has(op));
    expect(missing).toEqual([]);
  });

  it("describes nothing that no route exports", () => {
    const exported = new Set(routes.flatMap((r) => r.methods.map((m) => `${m} ${r.template}`)));
    expect([...documented(doc())].filter((op) => !exported.has(op))).toEqual([]);
  });

  it("leaves out only routes that exist, and says which browser-only ones", () => {
    const folders = new Set(routes.map((r) => r.folder));
    for (const folder of Object.keys(NOT_DOCUMENTED)) expect(folders).toContain(folder);
    const description = doc().info.description;
    for (const route of Object.keys(BROWSER_ONLY)) expect(description).toContain(route);
  });

  it("gives every operation an id, a summary, its access and a success answer", () => {
    for (const [template, item] of Object.entries(doc().paths))
      for (const [method, op] of Object.entries(item)) {
        const where = `${method} ${template}`;
        expect(op?.operationId, where).toBeTruthy();
        expect(op?.summary, where).toBeTruthy();
        expect(Array.isArray(op?.security), where).toBe(true);
        expect(
          Object.keys(op?.responses ?? {}).some((c) => c.startsWith("2")),
          where,
        ).toBe(true);
      }
  });

  it("the crew API keeps CrewAI's paths under each crew's base URL", () => {
    expect(Object.keys(doc().paths)).toEqual(
      expect.arrayContaining([
        "/api/crews/{crew}",
        "/api/crews/{crew}/inputs",
        "/api/crews/{crew}/kickoff",
        "/api/crews/{crew}/status/{kickoff_id}",
        "/api/crews/{crew}/resume",
        "/api/crews/{crew}/stop/{kickoff_id}",
        "/api/crews/{crew}/executions/{kickoff_id}/stream",
      ]),
    );
  });

  it("says who may call, from the roles the code enforces", () => {
    const paths = doc().paths;
    // Reviewing needs a reviewer; only administrators signed in may manage people.
    expect(paths["/api/crews/{crew}/resume"]?.post?.security).toEqual([
      { bearer: ["org", "user:reviewer", "user:admin"] },
      { session: ["reviewer", "admin"] },
    ]);
    expect(paths["/api/users"]?.get?.security).toEqual([{ session: ["admin"] }]);
    // Saved views belong to a person: no organization token.
    expect(paths["/api/views"]?.get?.security).toEqual([
      { bearer: ["user:viewer", "user:operator", "user:reviewer", "user:admin"] },
      { session: ["viewer", "operator", "reviewer", "admin"] },
    ]);
    expect(paths["/api/integrations/actions"]?.get?.security).toEqual([{ integrationToken: [] }]);
    expect(paths["/api/healthz"]?.get?.security).toEqual([]);
  });
});
