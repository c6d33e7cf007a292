import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { endpoint } from "@/lib/api/endpoints/endpoint";
import { noCaller, route } from "@/lib/api/route";
import {
  assertDeclared,
  declaredAction,
  MUTATING,
  type RouteModule,
} from "@/lib/http/route-actions";

// A route that changes something names what its caller must be allowed to do: an action of
// lib/auth/roles.ts, or one of the builder's CHECKED_INSIDE reasons (lib/http/route-actions.ts).
// Left out, the builder would treat it as a read. Three guards: the table below is typed, so tsc
// refuses a route module whose POST, PUT, PATCH or DELETE names none; this file walks app/ and
// imports every route file to prove the same at run time (and that the table misses none); and
// the builder answers such a method with a 500 before anything else runs. (A route made from an
// endpoint always names one: lib/api/endpoints/endpoint.ts derives it from the endpoint's access.)
const APP = path.resolve(import.meta.dirname, "../../app");

// Route files whose other methods are not made with the builder (see route-builder.test.ts).
const EXEMPT: Record<string, string> = {
  "api/auth/[...nextauth]/route.ts":
    "next-auth's own sign-in and sign-out (it checks their CSRF token)",
  "api/bench/[crew]/kickoff/route.ts":
    "a 404 unless BENCH_ROUTES=1; even then it reads the body and touches nothing",
  "api/bench/[crew]/status/[id]/route.ts": "a 404 for every method but GET",
};

// Every other route file. Typed: a module whose non-GET handler names no action fails tsc here.
const ROUTES = [
  () => import("@/app/.well-known/agent-card.json/route"),
  () => import("@/app/api/[[...path]]/route"),
  () => import("@/app/api/a2a/[crew]/.well-known/agent-card.json/route"),
  () => import("@/app/api/a2a/[crew]/route"),
  () => import("@/app/api/a2a/route"),
  () => import("@/app/api/admin/tokens/route"),
  () => import("@/app/api/ag-ui/[crew]/route"),
  () => import("@/app/api/crews/[crew]/calibrations/[id]/route"),
  () => import("@/app/api/crews/[crew]/calibrations/route"),
  () => import("@/app/api/crews/[crew]/datasets/[id]/collect/route"),
  () => import("@/app/api/crews/[crew]/datasets/[id]/route"),
  () => import("@/app/api/crews/[crew]/datasets/[id]/rows/[position]/route"),
  () => import("@/app/api/crews/[crew]/datasets/[id]/rows/route"),
  () => import("@/app/api/crews/[crew]/datasets/route"),
  () => import("@/app/api/crews/[crew]/definition/route"),
  () => import("@/app/api/crews/[crew]/executions/[kickoff_id]/artifacts/[...name]/route"),
  () => import("@/app/api/crews/[crew]/executions/[kickoff_id]/artifacts/route"),
  () => import("@/app/api/crews/[crew]/executions/[kickoff_id]/events/route"),
  () => import("@/app/api/crews/[crew]/executions/[kickoff_id]/fork/route"),
  () => import("@/app/api/crews/[crew]/executions/[kickoff_id]/ledger/route"),
  () => import("@/app/api/crews/[crew]/executions/[kickoff_id]/ledger/verify/route"),
  () => import("@/app/api/crews/[crew]/executions/[kickoff_id]/rerun/route"),
  () => import("@/app/api/crews/[crew]/executions/[kickoff_id]/reruns/route"),
  () => import("@/app/api/crews/[crew]/executions/[kickoff_id]/reviews/[task_id]/route"),
  () => import("@/app/api/crews/[crew]/executions/[kickoff_id]/stream/route"),
  () => import("@/app/api/crews/[crew]/experiments/[id]/cells/route"),
  () => import("@/app/api/crews/[crew]/experiments/[id]/route"),
  () => import("@/app/api/crews/[crew]/experiments/[id]/stop/route"),
  () => import("@/app/api/crews/[crew]/experiments/route"),
  () => import("@/app/api/crews/[crew]/inputs/route"),
  () => import("@/app/api/crews/[crew]/kickoff/route"),
  () => import("@/app/api/crews/[crew]/resume/route"),
  () => import("@/app/api/crews/[crew]/route"),
  () => import("@/app/api/crews/[crew]/schedules/[id]/fires/route"),
  () => import("@/app/api/crews/[crew]/schedules/[id]/route"),
  () => import("@/app/api/crews/[crew]/schedules/route"),
  () => import("@/app/api/crews/[crew]/status/[kickoff_id]/route"),
  () => import("@/app/api/crews/[crew]/stop/[kickoff_id]/route"),
  () => import("@/app/api/crews/[crew]/triggers/[id]/events/route"),
  () => import("@/app/api/crews/[crew]/triggers/[id]/route"),
  () => import("@/app/api/crews/[crew]/triggers/[id]/secret/route"),
  () => import("@/app/api/crews/[crew]/triggers/route"),
  () => import("@/app/api/crews/[crew]/variants/[id]/route"),
  () => import("@/app/api/crews/[crew]/variants/route"),
  () => import("@/app/api/crews/route"),
  () => import("@/app/api/deployments/[deployment]/route"),
  () => import("@/app/api/deployments/[deployment]/test/route"),
  () => import("@/app/api/deployments/route"),
  () => import("@/app/api/healthz/route"),
  () => import("@/app/api/hooks/[deployment]/[run]/[kind]/route"),
  () => import("@/app/api/hooks/receive/route"),
  () => import("@/app/api/integrations/actions/[name]/execute/route"),
  () => import("@/app/api/integrations/actions/route"),
  () => import("@/app/api/integrations/linear/callback/route"),
  () => import("@/app/api/integrations/linear/connect/route"),
  () => import("@/app/api/integrations/linear/disconnect/route"),
  () => import("@/app/api/integrations/linear/route"),
  () => import("@/app/api/integrations/settings/route"),
  () => import("@/app/api/integrations/test/route"),
  () => import("@/app/api/integrations/tokens/[id]/route"),
  () => import("@/app/api/integrations/tokens/route"),
  () => import("@/app/api/mcp/route"),
  () => import("@/app/api/me/notifications/route"),
  () => import("@/app/api/metrics/route"),
  () => import("@/app/api/openapi.json/route"),
  () => import("@/app/api/reviews/assignees/route"),
  () => import("@/app/api/reviews/route"),
  () => import("@/app/api/reviews/stream/route"),
  () => import("@/app/api/runs/review-stats/route"),
  () => import("@/app/api/runs/route"),
  () => import("@/app/api/runs/stats/route"),
  () => import("@/app/api/settings/mcp-secrets/route"),
  () => import("@/app/api/settings/mcp-servers/route"),
  () => import("@/app/api/settings/mcp-servers/test/route"),
  () => import("@/app/api/settings/model-prices/route"),
  () => import("@/app/api/settings/notifications/route"),
  () => import("@/app/api/settings/notifications/test/route"),
  () => import("@/app/api/settings/webhook-secret/route"),
  () => import("@/app/api/setup/route"),
  () => import("@/app/api/tokens/[id]/route"),
  () => import("@/app/api/tokens/route"),
  () => import("@/app/api/triggers/[id]/route"),
  () => import("@/app/api/users/[id]/route"),
  () => import("@/app/api/users/[id]/unlock/route"),
  () => import("@/app/api/users/route"),
  () => import("@/app/api/views/[id]/route"),
  () => import("@/app/api/views/route"),
  () => import("@/app/api/webhooks/deliveries/[id]/redeliver/route"),
  () => import("@/app/api/webhooks/deliveries/route"),
] satisfies (() => Promise<RouteModule>)[];

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return routeFiles(full);
    return e.name === "route.ts" ? [full] : [];
  });
}
const files = routeFiles(APP)
  .map((file) => path.relative(APP, file))
  .filter((name) => !EXEMPT[name]);

describe("every route that changes something names its action", () => {
  it("finds the routes, and the typed table lists each", async () => {
    expect(files.length).toBeGreaterThanOrEqual(80);
    const listed = new Set(await Promise.all(ROUTES.map((load) => load())));
    const unlisted = [];
    for (const name of files)
      if (!listed.has(await import(path.join(APP, name)))) unlisted.push(name);
    expect(unlisted.join("\n"), "add these to ROUTES").toBe("");
    expect(listed.size).toBe(files.length);
  });

  it("each POST, PUT, PATCH and DELETE declares an action", async () => {
    const undeclared = [];
    for (const name of files) {
      const mod: Record<string, unknown> = await import(path.join(APP, name));
      for (const method of MUTATING)
        if (method in mod && !declaredAction(mod[method])) undeclared.push(`${method} ${name}`);
    }
    expect(undeclared.join("\n"), "name their action").toBe("");
  });
});

describe("the builder's backstop", () => {
  it("refuses a method other than GET that names no action, naming it", () => {
    for (const method of MUTATING) {
      const request = new Request("http://crewdeck.test/api/x", { method });
      expect(() => assertDeclared(request, undefined)).toThrow(`${method} /api/x names no action`);
      expect(() => assertDeclared(request, "secret")).not.toThrow();
    }
    expect(() =>
      assertDeclared(new Request("http://crewdeck.test/api/x"), undefined),
    ).not.toThrow();
  });

  it("a route made from an endpoint carries the action its access implies, and runs", async () => {
    const built = route(
      endpoint({
        method: "POST",
        path: "/api/x",
        operationId: "x",
        tag: "Service",
        summary: "x",
        access: { public: "a test" },
        responses: { 204: { description: "Done." } },
      }),
      async () => new Response(null, { status: 204 }),
      noCaller,
    );
    expect(declaredAction(built)).toBe("secret");
    const request = new Request("http://crewdeck.test/api/x", { method: "POST" });
    expect((await built(request, { params: Promise.resolve({}) })).status).toBe(204);
  });
});
