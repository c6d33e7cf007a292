import fs from "node:fs";
import path from "node:path";
import { parseSync } from "oxc-parser";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ENDPOINTS } from "@/lib/api/endpoints";
import type { Endpoint } from "@/lib/api/endpoints/endpoint";

// One source for the API: every handler an app/api route file exports is made by a builder of
// lib/api/route.ts from one endpoint of lib/api/endpoints, whose path is the file's own path and
// whose method is the export's name; and every endpoint is served by exactly one handler. Read
// from the sources, so a route written beside its endpoint (or an endpoint no route serves) fails.

const ROOT = path.resolve(import.meta.dirname, "../..");
const API = path.join(ROOT, "app/api");
const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]);
const BUILDERS = new Set([
  "apiRoute",
  "crewRoute",
  "runRoute",
  "integrationRoute",
  "route",
  "plainRoute",
]);

// Route files that serve no endpoint of ours, and why.
const NOT_ENDPOINTS: Record<string, string> = {
  "auth/[...nextauth]": "next-auth's own handlers",
  "integrations/linear/callback": "Linear sends the browser back here: every outcome is a page",
  "bench/[crew]/status/[id]": "bench/status.mjs's bare baseline, a 404 unless BENCH_ROUTES=1",
  "bench/[crew]/kickoff": "bench/kickoff.mjs's bare baseline, a 404 unless BENCH_ROUTES=1",
  "[[...path]]": "any path that is no endpoint: a 404 problem (refusingRoute)",
};

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return routeFiles(full);
    return e.name === "route.ts" ? [full] : [];
  });
}

/** `crews/[crew]/executions/[kickoff_id]/artifacts/[...name]` → its endpoint's path template. */
const templateOf = (folder: string) =>
  `/api/${folder
    .split(path.sep)
    .map((s) => s.replace(/^\[(?:\.\.\.)?(.+)\]$/, "{$1}"))
    .join("/")}`;

type Served = { method: string; area: string; name: string } | { method: string; bad: string };

/** What each exported method of a route file is made from, read from its syntax. */
function servedBy(file: string): Served[] {
  const source = fs.readFileSync(file, "utf8");
  const { program, errors } = parseSync(file, source);
  if (errors.length) throw new Error(`${file}: ${errors[0]?.message}`);
  const areas = new Map<string, string>(); // namespace → area, for `import * as x from …`
  const served: Served[] = [];
  for (const statement of program.body) {
    if (statement.type === "ImportDeclaration") {
      const area = /^@\/lib\/api\/endpoints\/([\w-]+)$/.exec(statement.source.value)?.[1];
      for (const spec of statement.specifiers)
        if (area && spec.type === "ImportNamespaceSpecifier") areas.set(spec.local.name, area);
    }
    if (statement.type !== "ExportNamedDeclaration") continue;
    const declaration = statement.declaration;
    if (declaration?.type === "FunctionDeclaration" && METHODS.has(declaration.id?.name ?? ""))
      served.push({ method: declaration.id?.name ?? "", bad: "a hand-written handler" });
    if (declaration?.type !== "VariableDeclaration") continue;
    for (const { id, init } of declaration.declarations) {
      if (id.type !== "Identifier" || !METHODS.has(id.name)) continue;
      const call = init?.type === "CallExpression" ? init : undefined;
      const builder = call?.callee.type === "Identifier" ? call.callee.name : "";
      const first = call?.arguments[0];
      const member =
        first?.type === "MemberExpression" &&
        first.object.type === "Identifier" &&
        first.property.type === "Identifier"
          ? { namespace: first.object.name, name: first.property.name }
          : undefined;
      if (!BUILDERS.has(builder) || !member) {
        served.push({ method: id.name, bad: "not a builder called with an endpoint" });
        continue;
      }
      served.push({
        method: id.name,
        area: areas.get(member.namespace) ?? `(${member.namespace} is no endpoints module)`,
        name: member.name,
      });
    }
  }
  return served;
}

const areaModules = Object.fromEntries(
  fs
    .readdirSync(path.join(ROOT, "lib/api/endpoints"))
    .filter(
      (f) =>
        f.endsWith(".ts") &&
        !["endpoint.ts", "index.ts", "path-params.ts", "shared.ts", "tags.ts"].includes(f),
    )
    .map((f) => [f.replace(/\.ts$/, ""), `@/lib/api/endpoints/${f.replace(/\.ts$/, "")}`]),
);

describe("every route serves its endpoint", () => {
  const files = routeFiles(API).filter(
    (file) => !NOT_ENDPOINTS[path.relative(API, path.dirname(file))],
  );

  it("finds the routes", () => expect(files.length).toBeGreaterThanOrEqual(80));

  it("each exported method is a builder's, made from the endpoint at the file's own path", async () => {
    const wrong: string[] = [];
    const used = new Map<Endpoint, string>();
    for (const file of files) {
      const folder = path.relative(API, path.dirname(file));
      for (const served of servedBy(file)) {
        const where = `${served.method} app/api/${folder}`;
        if ("bad" in served) {
          wrong.push(`${where}: ${served.bad}`);
          continue;
        }
        const module = areaModules[served.area];
        const found: unknown = module ? (await import(module))[served.name] : undefined;
        const endpoint = ENDPOINTS.find((e) => e === found);
        if (!endpoint) wrong.push(`${where}: ${served.area}.${served.name} is not an endpoint`);
        else if (endpoint.method !== served.method || endpoint.path !== templateOf(folder))
          wrong.push(`${where} serves ${endpoint.method} ${endpoint.path}`);
        else if (used.has(endpoint)) wrong.push(`${where}: also served by ${used.get(endpoint)}`);
        else used.set(endpoint, where);
      }
    }
    expect(wrong.join("\n")).toBe("");
    const unserved = ENDPOINTS.filter((e) => !used.has(e)).map((e) => `${e.method} ${e.path}`);
    expect(unserved.join("\n"), "endpoints no route serves").toBe("");
  });

  it("reads a hand-written handler or one made without an endpoint as wrong", () => {
    const dir = fs.mkdtempSync(path.join(ROOT, ".tmp-endpoints-"));
    try {
      const file = path.join(dir, "route.ts");
      fs.writeFileSync(
        file,
        [
          'import * as crewApi from "@/lib/api/endpoints/crew";',
          "export async function GET() {}",
          "export const POST = crewRoute(async () => x);",
          "export const PUT = crewRoute(crewApi.kickoff, async () => x);",
        ].join("\n"),
      );
      expect(servedBy(file)).toEqual([
        { method: "GET", bad: "a hand-written handler" },
        { method: "POST", bad: "not a builder called with an endpoint" },
        { method: "PUT", area: "crew", name: "kickoff" },
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true });
    }
  });
});

describe("every endpoint says what it answers and what it takes", () => {
  it.each(ENDPOINTS.map((e) => [`${e.method} ${e.path}`, e] as const))("%s", (_name, e) => {
    const names = [...e.path.matchAll(/\{([^}]+)\}/g)].map(([, n]) => n);
    expect(Object.keys(z.toJSONSchema(e.paramsSchema).properties ?? {}).sort()).toEqual(
      names.sort(),
    );
    const answers = Object.entries(e.responses).filter(([code]) => Number(code) < 400);
    expect(answers.length).toBeGreaterThan(0);
    for (const [code, reply] of answers)
      if (Number(code) < 300 && code !== "204") expect(reply.schema, code).toBeDefined();
    if (e.method !== "GET") expect(e.action).toBeTruthy();
  });
});
