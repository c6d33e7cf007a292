import "server-only";
import { z } from "zod";
import { authenticate } from "@/lib/auth/authenticate";
import type { Principal } from "@/lib/auth/principal";
import { can } from "@/lib/auth/roles";
import { hashToken } from "@/lib/auth/token-format";
import { getCrewOrThrow } from "@/lib/crew/registry";
import type { CrewDef } from "@/lib/crew/schema";
import { getDb } from "@/lib/db";
import { remoteCrewDef } from "@/lib/deployments/remote-runs";
import { type Deployment, getDeploymentOrThrow } from "@/lib/deployments/store";
import { AppError } from "@/lib/errors";
import { checkingResponses, checkResponse } from "@/lib/http/check-response";
import { parseInput } from "@/lib/http/parse-input";
import { type ProblemShape, toProblem } from "@/lib/http/problem";
import { checkRateLimit, checkRateLimitFor } from "@/lib/http/rate-limit";
import { assertDeclared, type Declared } from "@/lib/http/route-actions";
import { asUnavailable, forbidden, shuttingDown } from "@/lib/http/route-errors";
import { type Params, parseBody, parseParams, queryOf } from "@/lib/http/route-inputs";
import { isDraining } from "@/lib/server/shutdown";
import { type IntegrationAccess, integrationAccess } from "@/lib/tracker/integration-token";
import type {
  Access,
  BodyOf,
  Endpoint,
  ParamsOf,
  QueryOf,
  TokenAccess,
} from "./endpoints/endpoint";

// The route builder: every API route serves one endpoint of lib/api/endpoints with it, so what
// the document says (access, parameters, body, answers) is what the route does.

/** Who is calling (and what it addresses), or an error: before anything else is looked at. */
type Caller<C> = {
  caller: (request: Request, params: Params) => Promise<C>;
  /** The rate-limit bucket of this caller; null for none (callers proven by a signature). */
  rateKey: (caller: C, request: Request) => string | null;
  /** Integration routes add CrewAI's `error: {code, message}` member to every problem body. */
  shape?: ProblemShape;
};

export type Ctx<C, E extends Endpoint> = {
  request: Request;
  caller: C;
  params: ParamsOf<E>;
  body: BodyOf<E>;
  query: QueryOf<E>;
};

/**
 * In order: refuse while this instance drains (503), identify the caller, rate-limit it (429),
 * check the path parameters (404), parse the query and the body against their schemas within
 * the body limit, run the handler (and, in the HTTP tests, check its answer against the
 * endpoint's). Every failure becomes one problem body.
 */
function build<C, E extends Endpoint>(
  endpoint: E,
  who: Caller<C>,
  handler: (ctx: Ctx<C, E>) => Promise<Response>,
): Declared<Params> {
  const serve = async (request: Request, context: { params: Promise<Params> }) => {
    try {
      assertDeclared(request, endpoint.action);
      if (isDraining()) throw shuttingDown();
      // A route without path parameters gets none from Next.js (not an empty object).
      const raw = (await context.params) ?? {};
      const caller = await who.caller(request, raw);
      const key = who.rateKey(caller, request);
      if (key) checkRateLimitFor(key);
      // After the caller: a bad token learns nothing, not even which ids are well-formed.
      const params = parseParams(endpoint.paramsSchema, raw);
      const query = endpoint.query
        ? parseInput(endpoint.query, queryOf(request, endpoint.repeatable), "query")
        : undefined;
      const body = endpoint.body ? await parseBody(request, endpoint.body) : undefined;
      // Parsed with the endpoint's own schemas, which BodyOf and QueryOf read: TypeScript cannot
      // follow a generic endpoint's schema to its output, so the context is named here.
      const response = await handler({ request, caller, params, body, query } as Ctx<C, E>);
      return checkingResponses() && Object.keys(endpoint.responseSchemas).length
        ? await checkResponse(endpoint.responseSchemas, request, response)
        : response;
    } catch (err) {
      return toProblem(asUnavailable(err) ?? err, who.shape);
    }
  };
  return Object.assign(serve, { action: endpoint.action });
}

type TokenEndpoint = Endpoint<string, TokenAccess>;
type CrewEndpoint = Endpoint<`/api/crews/{crew}${string}`, TokenAccess>;

/** Who an endpoint's handler is called by: a person signed in when the endpoint is sessionOnly. */
type PrincipalOf<A> = A extends { sessionOnly: string }
  ? Extract<Principal, { kind: "session" }>
  : Principal;

export type RouteContext<E extends Endpoint> = Omit<Ctx<Principal, E>, "caller"> & {
  principal: PrincipalOf<E["access"]>;
};
export type CrewRouteContext<E extends Endpoint> = Omit<Ctx<Principal, E>, "caller"> & {
  principal: Principal;
  crew: CrewDef;
  /** Set when the crew is `@<deployment>`: a crew served by a remote deployment. */
  deployment?: Deployment;
};

/** The token (or session), rate-limited before the role check: refusals count too. */
async function principalFor<A extends TokenAccess>(
  request: Request,
  access: A,
): Promise<PrincipalOf<A>>;
async function principalFor(request: Request, access: TokenAccess): Promise<Principal> {
  const principal = await authenticate(request);
  checkRateLimit(principal);
  const needs = access.action;
  if (!can(principal, needs)) throw forbidden(needs);
  if (access.sessionOnly && principal.kind !== "session")
    throw new AppError("forbidden", 403, access.sessionOnly);
  return principal;
}

/** An endpoint called with a token or the dashboard's session (TokenAccess). */
export function apiRoute<E extends TokenEndpoint>(
  endpoint: E,
  handler: (ctx: RouteContext<E>) => Promise<Response>,
) {
  return build<PrincipalOf<E["access"]>, E>(
    endpoint,
    {
      caller: (request) => principalFor<E["access"]>(request, endpoint.access),
      rateKey: () => null,
    },
    ({ caller, ...ctx }) => handler({ ...ctx, principal: caller }),
  );
}

type CrewCaller = { principal: Principal; crew: CrewDef; deployment?: Deployment };

function crewCaller(access: TokenAccess, existingRun: boolean) {
  // The token first (a bad one learns nothing), then the crew (404), then the body.
  return async (request: Request, params: Params): Promise<CrewCaller> => {
    const principal = await principalFor(request, access);
    const slug = String(params.crew);
    if (!slug.startsWith("@")) return { principal, crew: getCrewOrThrow(slug, { existingRun }) };
    const deployment = await getDeploymentOrThrow(await getDb(), slug.slice(1));
    return { principal, crew: remoteCrewDef(deployment), deployment };
  };
}

function crewBuild<E extends CrewEndpoint>(
  endpoint: E,
  handler: (ctx: CrewRouteContext<E>) => Promise<Response>,
  existingRun: boolean,
) {
  return build(
    endpoint,
    { caller: crewCaller(endpoint.access, existingRun), rateKey: () => null },
    ({ caller, ...ctx }) => handler({ ...ctx, ...caller }),
  );
}

/**
 * An endpoint under /api/crews/{crew}: as apiRoute, with the crew resolved after the token check.
 * `@<deployment>` names a remote deployment's crew: the same API, answered by forwarding to it.
 */
export const crewRoute = <E extends CrewEndpoint>(
  endpoint: E,
  handler: (ctx: CrewRouteContext<E>) => Promise<Response>,
) => crewBuild(endpoint, handler, false);

/** crewRoute for a run already started (status, events, resume, stop): it answers while the
 * crew's files are broken (see getCrewOrThrow). */
export const runRoute = <E extends CrewEndpoint>(
  endpoint: E,
  handler: (ctx: CrewRouteContext<E>) => Promise<Response>,
) => crewBuild(endpoint, handler, true);

/**
 * The tracker actions, called by agent runtimes with an integration token (not a person's or an
 * organization's): the same pipeline, rate-limited per token, errors in CrewAI's shape too.
 */
export function integrationRoute<E extends Endpoint<string, { integrationToken: true }>>(
  endpoint: E,
  handler: (ctx: Ctx<IntegrationAccess, E>) => Promise<Response>,
) {
  return build(
    endpoint,
    {
      shape: "integration",
      caller: async (request) => integrationAccess(await getDb(), request),
      rateKey: (_access, request) =>
        `integration:${hashToken(request.headers.get("authorization") ?? "")}`,
    },
    handler,
  );
}

type OwnAccess = Exclude<Access, TokenAccess | { integrationToken: true }>;

/** For endpoints whose caller proves itself inside (signed webhooks, the setup code): no token. */
export const noCaller: Caller<null> = { caller: async () => null, rateKey: () => null };

/**
 * An endpoint with a credential of its own (the local admin secret, a signature, a secret); or a
 * token endpoint that also admits callers without one (metrics: a scraper from an allowed
 * network), whose caller then makes apiRoute's checks itself.
 */
export function route<E extends Endpoint<string, OwnAccess> | TokenEndpoint, C = null>(
  endpoint: E,
  handler: (ctx: Ctx<C, E>) => Promise<Response>,
  who: Caller<C>,
) {
  return build(endpoint, who, handler);
}

/** What a route that only refuses serves: nothing to document, nothing to parse. */
const REFUSAL = {
  method: "GET",
  path: "/api",
  operationId: "refusal",
  tag: "Service",
  summary: "",
  access: { action: "read", inside: "refused" },
  responses: {},
  paramsSchema: z.object({}),
  action: "refused",
  responseSchemas: {},
} satisfies Endpoint<"/api", TokenAccess>;

/** A route that answers only a refusal (a 404 for an unknown path), after its caller. */
export const refusingRoute = <C>(
  who: Caller<C>,
  handler: (ctx: Ctx<C, typeof REFUSAL>) => Promise<Response>,
) => build(REFUSAL, who, handler);

/**
 * Handlers for the methods a crew endpoint does not support: 405 as a problem body with `Allow`,
 * after the same token and crew check (so an unauthenticated caller learns nothing about it).
 * Use: `export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");`
 */
export function otherMethods(allow: string) {
  const handler = refusingRoute(
    { caller: crewCaller(REFUSAL.access, false), rateKey: () => null },
    async ({ request }) => {
      throw new AppError(
        "method-not-allowed",
        405,
        `${request.method} is not supported here; use ${allow}.`,
        {},
        { allow },
      );
    },
  );
  return { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler };
}

/**
 * An endpoint served without the builder: no caller, no database, no drain check (liveness, a
 * static document). The handler carries its endpoint, as every route's does.
 */
export const plainRoute = <E extends Endpoint<string, { public: string; plain: true }>>(
  endpoint: E,
  handler: (request: Request) => Promise<Response> | Response,
) => Object.assign(handler, { action: endpoint.action });
