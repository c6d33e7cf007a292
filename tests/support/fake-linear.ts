import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Json } from "./api";

// A loopback stand-in for Linear's GraphQL API: the subset of the schema Crewdeck's adapter uses
// (its named operations), an in-memory workspace, and Linear's error shapes — an authentication
// error for a wrong key, a forbidden error for mutations with the read-only key.
export const FAKE_LINEAR_KEY = "lin_api_fake_0123456789";
export const FAKE_LINEAR_READ_ONLY_KEY = "lin_api_fake_readonly";

type Issue = Json;

/** How the fake OAuth provider behaves for the next authorization or token request. */
export type FakeOAuthOptions = {
  clientId: string;
  clientSecret: string;
  /** The scopes granted (Linear grants what the app asked unless the user narrows them). */
  grant?: string[];
  /** Codes older than this are refused as expired (invalid_grant). */
  codeTtlMs?: number;
  /** The token endpoint fails with 500. */
  tokenEndpointDown?: boolean;
  /** Access tokens expire after this many seconds. */
  expiresIn?: number;
};

export async function startFakeLinear({
  oauth,
  port = 0,
}: {
  oauth?: FakeOAuthOptions;
  /** A fixed port, for a server that must know the URL before this starts (Playwright). */
  port?: number;
} = {}) {
  const uuid = () => crypto.randomUUID();
  const now = () => new Date().toISOString();
  const labels = ["bug", "feature", "documentation"].map((name) => ({ id: uuid(), name }));
  const user = { id: uuid(), name: "Ada Lovelace" };
  const teams = ["ENG:Engineering", "OPS:Operations"].map((t) => {
    const [key, name] = t.split(":");
    return {
      id: uuid(),
      key,
      name,
      next: 1,
      states: {
        nodes: [
          "Backlog:backlog",
          "Todo:unstarted",
          "In Progress:started",
          "Done:completed",
          "Canceled:canceled",
        ].map((s) => ({ id: uuid(), name: s.split(":")[0], type: s.split(":")[1] })),
      },
      labels: { nodes: labels },
      cycles: { nodes: [{ id: uuid() }] },
    };
  });
  const issues = new Map<string, Issue>();
  const projects = new Map<string, Json>();
  const requests: string[] = [];
  const rateLimited = new Set<string>();

  const teamOut = (t: Json) => ({
    id: t.id,
    key: t.key,
    name: t.name,
    states: t.states,
    labels: t.labels,
    cycles: t.cycles,
  });
  const issueOut = (i: Issue) => ({
    ...i,
    team: { id: i.team.id, key: i.team.key, name: i.team.name },
    state: i.team.states.nodes.find((s: Json) => s.id === i.stateId),
    assignee: i.assigneeId === user.id ? user : null,
    project: i.projectId ? { id: i.projectId, name: projects.get(i.projectId)?.name } : null,
    parent: i.parentId ? { id: i.parentId } : null,
    cycle: i.cycleId ? { id: i.cycleId } : null,
    labels: { nodes: labels.filter((l) => (i.labelIds ?? []).includes(l.id)) },
  });
  const findIssue = (id: string) =>
    issues.get(id) ?? [...issues.values()].find((i) => i.identifier === id);

  const compare = (actual: unknown, comparator: Json): boolean =>
    Object.entries(comparator).every(([op, v]) => {
      const a = actual as never;
      const s = String(actual ?? "");
      switch (op) {
        case "eq":
          return a === v;
        case "neq":
          return a !== v;
        case "in":
          return (v as unknown[]).includes(a);
        case "nin":
          return !(v as unknown[]).includes(a);
        case "startsWith":
          return s.startsWith(v as string);
        case "notStartsWith":
          return !s.startsWith(v as string);
        case "endsWith":
          return s.endsWith(v as string);
        case "notEndsWith":
          return !s.endsWith(v as string);
        case "containsIgnoreCase":
          return s.toLowerCase().includes(String(v).toLowerCase());
        case "notContainsIgnoreCase":
          return !s.toLowerCase().includes(String(v).toLowerCase());
        case "gt":
          return a > (v as never);
        case "lt":
          return a < (v as never);
        case "gte":
          return a >= (v as never);
        case "lte":
          return a <= (v as never);
        default:
          throw new Error(`fake Linear does not know comparator ${op}`);
      }
    });
  const matches = (item: Json, filter: Json | undefined): boolean =>
    !filter ||
    filter.or.some((g: Json) =>
      g.and.every((cond: Json) => {
        const [field, comparator] = Object.entries(cond)[0] as [string, Json];
        if (field === "project")
          return compare(
            item.projectId ? projects.get(item.projectId)?.name : null,
            comparator.name,
          );
        return compare(item[field], comparator);
      }),
    );

  const ops: Record<string, (v: Json) => Json> = {
    teamContext: (v) => ({
      team: (() => {
        const t = teams.find((x) => x.id === v.id);
        return t ? teamOut(t) : null;
      })(),
    }),
    teams: (v) => ({ teams: { nodes: teams.filter((t) => matches(t, v.filter)).map(teamOut) } }),
    user: (v) => ({ user: v.id === user.id ? user : null }),
    issue: (v) => ({
      issue: (() => {
        const i = findIssue(v.id);
        return i ? issueOut(i) : null;
      })(),
    }),
    issueCreate: ({ input }) => {
      const team = teams.find((t) => t.id === input.teamId) as Json;
      const number = team.next++;
      const issue = {
        id: uuid(),
        identifier: `${team.key}-${number}`,
        number,
        title: input.title,
        description: input.description ?? null,
        priority: input.priority ?? 0,
        dueDate: input.dueDate ?? null,
        createdAt: now(),
        updatedAt: now(),
        archivedAt: null,
        trashed: false,
        team,
        stateId: input.stateId ?? team.states.nodes[0].id,
        assigneeId: input.assigneeId ?? null,
        labelIds: input.labelIds ?? [],
        parentId: input.parentId ?? null,
        cycleId: input.cycleId ?? null,
        projectId: null,
      };
      issues.set(issue.id, issue);
      return { issueCreate: { success: true, issue: issueOut(issue) } };
    },
    issueUpdate: ({ id, input }) => {
      const issue = findIssue(id) as Issue;
      Object.assign(issue, input, input.stateId ? { stateId: input.stateId } : {}, {
        updatedAt: now(),
      });
      return { issueUpdate: { success: true, issue: issueOut(issue) } };
    },
    searchIssues: ({ term, filter }) => ({
      searchIssues: {
        nodes: [...issues.values()]
          .filter(
            (i) =>
              !i.trashed &&
              !i.archivedAt &&
              `${i.title} ${i.description ?? ""}`.toLowerCase().includes(term.toLowerCase()) &&
              matches(i, filter),
          )
          .reverse()
          .map(issueOut),
      },
    }),
    issueDelete: ({ id }) => {
      (findIssue(id) as Issue).trashed = true;
      return { issueDelete: { success: true } };
    },
    issueArchive: ({ id }) => {
      (findIssue(id) as Issue).archivedAt = now();
      return { issueArchive: { success: true } };
    },
    project: ({ id }) => ({ project: projects.get(id) ?? null }),
    projectCreate: ({ input }) => {
      const project = {
        id: uuid(),
        name: input.name,
        description: input.description ?? null,
        state: input.state ?? "planned",
        createdAt: now(),
        updatedAt: now(),
        lead: null,
        trashed: false,
        teams: {
          nodes: teams
            .filter((t) => input.teamIds.includes(t.id))
            .map((t) => ({ id: t.id, key: t.key, name: t.name })),
        },
      };
      projects.set(project.id, project);
      return { projectCreate: { success: true, project } };
    },
    projectUpdate: ({ id, input }) => {
      const project = projects.get(id) as Json;
      Object.assign(project, input, { updatedAt: now() });
      return { projectUpdate: { success: true, project } };
    },
    projectDelete: ({ id }) => {
      (projects.get(id) as Json).trashed = true;
      return { projectDelete: { success: true } };
    },
  };

  // OAuth 2.0 as Linear runs it: a consent page, codes bound to a PKCE challenge and redirect
  // URI, access and refresh tokens, revocation. Tokens it issued are accepted by the GraphQL API.
  const codes = new Map<
    string,
    { challenge: string; redirect: string; scopes: string[]; at: number; used: boolean }
  >();
  const oauthTokens = new Map<string, { scopes: string[]; refresh: string; expires: number }>();
  const refreshTokens = new Map<string, string>();
  const oauthState = { ...oauth };
  const issue = (scopes: string[]) => {
    const access = `lin_oauth_${crypto.randomBytes(12).toString("hex")}`;
    const refresh = `lin_refresh_${crypto.randomBytes(12).toString("hex")}`;
    const expiresIn = oauthState.expiresIn ?? 36_000;
    oauthTokens.set(access, { scopes, refresh, expires: Date.now() + expiresIn * 1000 });
    refreshTokens.set(refresh, access);
    return {
      access_token: access,
      token_type: "Bearer",
      expires_in: expiresIn,
      refresh_token: refresh,
      scope: scopes.join(" "),
    };
  };
  async function handleOAuth(req: http.IncomingMessage, res: http.ServerResponse, raw: string) {
    const url = new URL(req.url ?? "/", "http://fake");
    const json = (status: number, body: unknown) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (url.pathname === "/oauth/authorize") {
      const q = url.searchParams;
      if (q.get("client_id") !== oauthState.clientId) return json(400, { error: "invalid_client" });
      const back = new URL(q.get("redirect_uri") ?? "");
      back.searchParams.set("state", q.get("state") ?? "");
      if (q.get("decision") === "deny") back.searchParams.set("error", "access_denied");
      else if (q.get("decision") === "approve") {
        const code = crypto.randomBytes(10).toString("hex");
        codes.set(code, {
          challenge: q.get("code_challenge") ?? "",
          redirect: q.get("redirect_uri") ?? "",
          scopes: oauthState.grant ?? (q.get("scope") ?? "").split(/[\s,]+/),
          at: Date.now(),
          used: false,
        });
        back.searchParams.set("code", code);
      } else {
        // The consent page: two links, as a person would see two buttons.
        const choice = (d: string) => {
          const u = new URL(url);
          u.searchParams.set("decision", d);
          return `${u.pathname}${u.search}`;
        };
        return res
          .writeHead(200, { "content-type": "text/html" })
          .end(
            `<!doctype html><html lang="en"><title>Authorize</title><main><h1>Fake Linear wants to connect</h1><p>Scopes: ${q.get("scope")}</p><a href="${choice("approve")}">Approve</a> <a href="${choice("deny")}">Deny</a></main></html>`,
          );
      }
      return res.writeHead(302, { location: back.toString() }).end();
    }
    if (url.pathname === "/oauth/token") {
      if (oauthState.tokenEndpointDown)
        return json(500, { error: "server_error", error_description: "Try again later" });
      const f = new URLSearchParams(raw);
      if (
        f.get("client_id") !== oauthState.clientId ||
        f.get("client_secret") !== oauthState.clientSecret
      )
        return json(401, { error: "invalid_client" });
      if (f.get("grant_type") === "refresh_token") {
        const access = refreshTokens.get(f.get("refresh_token") ?? "");
        if (!access) return json(400, { error: "invalid_grant" });
        const old = oauthTokens.get(access);
        oauthTokens.delete(access);
        refreshTokens.delete(f.get("refresh_token") ?? "");
        return json(200, issue(old?.scopes ?? []));
      }
      const code = codes.get(f.get("code") ?? "");
      const verifier = f.get("code_verifier") ?? "";
      const challenge = crypto.createHash("sha256").update(verifier).digest("base64url");
      if (!code || code.used || Date.now() - code.at > (oauthState.codeTtlMs ?? 60_000))
        return json(400, {
          error: "invalid_grant",
          error_description: "The code is invalid or expired",
        });
      if (code.challenge !== challenge)
        return json(400, { error: "invalid_grant", error_description: "PKCE verification failed" });
      if (code.redirect !== f.get("redirect_uri"))
        return json(400, { error: "invalid_grant", error_description: "redirect_uri mismatch" });
      code.used = true;
      return json(200, issue(code.scopes));
    }
    if (url.pathname === "/oauth/revoke") {
      const token = (req.headers.authorization ?? "").replace(/^Bearer\s+/i, "");
      oauthTokens.delete(token);
      return json(200, {});
    }
    return json(404, { error: "not_found" });
  }

  const server = http.createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    if (req.url?.startsWith("/oauth/")) return handleOAuth(req, res, raw);
    // A browser on the consent page also asks for /favicon.ico.
    if (req.method !== "POST" || !req.url?.startsWith("/graphql")) return res.writeHead(404).end();
    const { query, variables } = JSON.parse(raw);
    const [, kind, name] = /^\s*(query|mutation)\s+(\w+)/.exec(query) ?? [];
    requests.push(name ?? "?");
    const send = (status: number, body: unknown) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")?.[1];
    const oauthToken = bearer ? oauthTokens.get(bearer) : undefined;
    const key =
      oauthToken && oauthToken.expires > Date.now()
        ? oauthToken.scopes.includes("write")
          ? FAKE_LINEAR_KEY
          : FAKE_LINEAR_READ_ONLY_KEY
        : req.headers.authorization;
    if (name === "Workspace" && (key === FAKE_LINEAR_KEY || key === FAKE_LINEAR_READ_ONLY_KEY))
      return send(200, { data: { organization: { name: "Fake Workspace", urlKey: "fake" } } });
    if (key !== FAKE_LINEAR_KEY && key !== FAKE_LINEAR_READ_ONLY_KEY) {
      return send(400, {
        errors: [
          {
            message: "Authentication required, not authenticated",
            extensions: {
              type: "authentication error",
              code: "AUTHENTICATION_ERROR",
              userPresentableMessage: "You need to authenticate.",
            },
          },
        ],
      });
    }
    if (kind === "mutation" && key === FAKE_LINEAR_READ_ONLY_KEY) {
      return send(400, {
        errors: [
          {
            message: "Forbidden: missing scope write",
            extensions: {
              type: "forbidden",
              code: "FORBIDDEN",
              userPresentableMessage: "The OAuth connection lacks the write scope.",
            },
          },
        ],
      });
    }
    // Handlers are keyed by the operation name with a lower-case first letter.
    const op = name ? ops[name.charAt(0).toLowerCase() + name.slice(1)] : undefined;
    // A title with "[ratelimit-once]" is rate-limited the first time, as Linear does under load.
    const title = variables?.input?.title as string | undefined;
    if (name === "IssueCreate" && title?.includes("[ratelimit-once]") && !rateLimited.has(title)) {
      rateLimited.add(title);
      res.writeHead(400, {
        "content-type": "application/json",
        "retry-after": "1",
        "x-ratelimit-requests-remaining": "0",
      });
      return res.end(
        JSON.stringify({
          errors: [
            {
              message: "Rate limit exceeded",
              extensions: {
                type: "ratelimited",
                code: "RATELIMITED",
                userPresentableMessage: "Too many requests.",
              },
            },
          ],
        }),
      );
    }
    if (!op)
      return send(400, {
        errors: [
          {
            message: `fake Linear does not implement ${name}`,
            extensions: { type: "graphql error" },
          },
        ],
      });
    send(200, { data: op(variables ?? {}) });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/graphql`,
    oauthUrls: {
      LINEAR_OAUTH_AUTHORIZE_URL: `${origin}/oauth/authorize`,
      LINEAR_OAUTH_TOKEN_URL: `${origin}/oauth/token`,
      LINEAR_OAUTH_REVOKE_URL: `${origin}/oauth/revoke`,
    },
    /** Changes how the OAuth provider behaves from now on. */
    setOAuth: (change: Partial<FakeOAuthOptions>) => Object.assign(oauthState, change),
    /** Revokes every token it issued, as a user removing the app in Linear would. */
    revokeAll: () => oauthTokens.clear(),
    oauthTokens,
    requests,
    issues,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
