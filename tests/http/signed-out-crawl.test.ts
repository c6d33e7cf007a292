import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { encode } from "next-auth/jwt";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { call, crewClient, type Json } from "../support/api";
import { ROOT, TEST_ADMIN, TEST_CREW_TOKEN, TEST_INTEGRATION_TOKEN } from "../support/harness";
import { signIn } from "../support/session";

// A signed-out visitor requests every page and every API route of the app (found by walking
// app/, so a route added later is crawled too) and must not find any of the data behind them in
// any response body: not the page's rendered payload, not an RSC stream, not an error.
const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
const tag = crypto.randomBytes(6).toString("hex");

// What the crawl must never see: data only the database or the crew files hold.
const SECRETS = {
  issueTitle: `Crawl issue ${tag}`,
  issueDescription: `launch codes ${tag}`,
  projectName: `Crawl project ${tag}`,
  runInput: `private input ${tag}`,
  deploymentName: `Crawl deployment ${tag}`,
  deploymentHost: `crawl-${tag}.invalid`,
  viewName: `Crawl view ${tag}`,
  viewQuery: `q=crawl-${tag}`,
};
const CREW_STRINGS = ["Three steps", "Step worker", "Writer for {audience}"];

let ids: { crew: string; run: string; issue: string; deployment: string };

beforeAll(async () => {
  const act = (name: string, integration: unknown) =>
    call(baseUrl, "POST", `/api/integrations/actions/${name}/execute`, {
      token: TEST_INTEGRATION_TOKEN,
      body: { integration },
    });
  const teams = await act("search_teams", {});
  expect(teams.status, teams.text).toBe(200);
  const team = teams.json.teams.find((t: Json) => t.key === "ENG");
  const project = await act("create_project", {
    teamIds: [team.id],
    projectName: SECRETS.projectName,
  });
  expect(project.status, project.text).toBe(200);
  const issue = await act("create_issue", {
    teamId: team.id,
    title: SECRETS.issueTitle,
    description: SECRETS.issueDescription,
  });
  expect(issue.status, issue.text).toBe(200);

  const run = await crewClient(baseUrl, "three-step", TEST_CREW_TOKEN).start({
    job: SECRETS.runInput,
  });

  // A deployment is an administrator's to add; its URL never has to answer for this.
  const admin = await signIn(baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
  const deployment = await call(baseUrl, "POST", "/api/deployments", {
    headers: { cookie: admin, origin: baseUrl },
    body: {
      name: SECRETS.deploymentName,
      base_url: `http://127.0.0.1:9/${SECRETS.deploymentHost}`,
      token: "remote-token-never-used",
    },
  });
  expect(deployment.status, deployment.text).toBe(201);
  const view = await call(baseUrl, "POST", "/api/views", {
    headers: { cookie: admin, origin: baseUrl },
    body: { name: SECRETS.viewName, query: SECRETS.viewQuery },
  });
  expect(view.status, view.text).toBe(201);

  ids = {
    crew: "three-step",
    run,
    issue: issue.json.issue.identifier,
    deployment: deployment.json.slug,
  };
});

// app/(group)/a/[b]/page.tsx → /a/<value of b>; `[[...x]]` and `[...x]` take one segment.
function routesOf(file: "page.tsx" | "route.ts") {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === file) found.push(path.relative(path.join(ROOT, "app"), dir));
    }
  };
  walk(path.join(ROOT, "app"));
  return found;
}

function urlsFor(route: string): string[] {
  const value = (param: string): string[] => {
    switch (param) {
      case "crew":
        return [ids.crew, `@${ids.deployment}`];
      case "id":
      case "run":
        return [ids.run];
      case "identifier":
        return [ids.issue];
      case "deployment":
        return [ids.deployment];
      case "kind":
        return ["crew"];
      case "name":
        return ["list_issues"];
      default:
        return ["session"];
    }
  };
  let urls = [""];
  for (const segment of route.split(path.sep).filter(Boolean)) {
    if (/^\(.*\)$/.test(segment)) continue; // a route group is not part of the URL
    const param = /^\[{1,2}(?:\.\.\.)?([^\]]+)\]{1,2}$/.exec(segment)?.[1];
    const options = param ? value(param) : [segment];
    urls = urls.flatMap((u) => options.map((o) => `${u}/${encodeURIComponent(o)}`));
  }
  return urls.map((u) => u || "/");
}

function methodsOf(route: string): string[] {
  const source = fs.readFileSync(path.join(ROOT, "app", route, "route.ts"), "utf8");
  const methods = ["GET", "POST", "PUT", "PATCH", "DELETE"];
  return methods.filter((m) => new RegExp(`\\b${m}\\b`).test(source));
}

function expectNothingLeaked(body: string, what: string) {
  const secrets = [...Object.values(SECRETS), ...CREW_STRINGS];
  for (const s of secrets) expect(body, `${what} leaks "${s}"`).not.toContain(s);
}

// A cookie that is genuinely signed with the server's secret but names nobody (as a replayed
// cookie of a removed person would): it passes any signature check, so only the page's own
// check of the person keeps the data in.
async function forgedSessionCookie() {
  const secret = fs.readFileSync(
    path.join(serverEnv.DATA_DIR ?? "", "secrets/auth-secret"),
    "utf8",
  );
  const name = "authjs.session-token";
  const token = await encode({
    token: { sub: crypto.randomUUID(), email: "ghost@example.com" },
    secret: secret.trim(),
    salt: name,
  });
  return `${name}=${token}`;
}

describe("a signed-out crawl of every page", () => {
  it("finds pages to crawl", () => {
    expect(routesOf("page.tsx").length).toBeGreaterThanOrEqual(10);
  });

  it("redirects every dashboard page to sign-in and shows no data, in any form", async () => {
    const ghost = await forgedSessionCookie();
    const variants: [string, Record<string, string>, string][] = [
      ["no cookie", {}, ""],
      ["a search", {}, `?q=${tag}&title=${tag}`],
      ["an RSC request", { rsc: "1" }, ""],
      ["a prefetch", { rsc: "1", "next-router-prefetch": "1" }, ""],
      ["a garbage cookie", { cookie: "authjs.session-token=garbage" }, ""],
      ["a signed cookie of nobody", { cookie: ghost }, ""],
      ["a signed cookie of nobody, RSC", { cookie: ghost, rsc: "1" }, ""],
    ];
    const pages = routesOf("page.tsx").flatMap(urlsFor);
    const publicPages = new Set(["/sign-in", "/setup", "/docs/api"]);
    for (const url of pages) {
      for (const [label, headers, query] of variants) {
        const r = await call(baseUrl, "GET", url + query, { headers });
        expectNothingLeaked(r.text, `GET ${url}${query} with ${label}`);
        if (publicPages.has(url)) continue;
        if (label === "no cookie") {
          expect(r.status, `GET ${url}`).toBe(307);
          expect(new URL(r.headers.get("location") ?? "", baseUrl).pathname).toBe("/sign-in");
        }
      }
    }
  });
});

describe("a signed-out crawl of every API route", () => {
  // Public by design: liveness, the API description, next-auth's own endpoints.
  const PUBLIC = [/^\/api\/healthz$/, /^\/api\/openapi\.json$/, /^\/api\/auth\//];

  it("answers every method of every route without data and without success", async () => {
    const routes = routesOf("route.ts").filter((r) => r.startsWith("api"));
    expect(routes.length).toBeGreaterThanOrEqual(30);
    for (const route of routes) {
      for (const url of urlsFor(route)) {
        for (const method of methodsOf(route)) {
          const r = await call(baseUrl, method, url, {
            body: method === "GET" || method === "DELETE" ? undefined : {},
          });
          expectNothingLeaked(r.text, `${method} ${url}`);
          if (PUBLIC.some((p) => p.test(url))) continue;
          // A refusal, or (the OAuth callback) a redirect back to sign in again.
          expect(r.status, `${method} ${url}: ${r.text.slice(0, 200)}`).toBeGreaterThanOrEqual(300);
        }
      }
    }
  });
});
