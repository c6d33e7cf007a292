import "server-only";
import { authenticate } from "@/lib/auth/authenticate";
import type { Principal } from "@/lib/auth/principal";
import { type Action, can, isAction } from "@/lib/auth/roles";
import { hashToken } from "@/lib/auth/token-format";
import { getCrewOrThrow } from "@/lib/crew/registry";
import type { CrewDef } from "@/lib/crew/schema";
import { getDb } from "@/lib/db";
import { remoteCrewDef } from "@/lib/deployments/remote-runs";
import { type Deployment, getDeploymentOrThrow } from "@/lib/deployments/store";
import { AppError } from "@/lib/errors";
import { isDraining } from "@/lib/server/shutdown";
import { type IntegrationAccess, integrationAccess } from "@/lib/tracker/integration-token";
import { checkingResponses, checkResponse } from "./check-response";
import { parseInput } from "./parse-input";
import { type ProblemShape, toProblem } from "./problem";
import { checkRateLimit, checkRateLimitFor } from "./rate-limit";
import {
  assertDeclared,
  type CheckedInside,
  type Declared,
  type Handler,
  type RouteAction,
  withAction,
} from "./route-actions";
import { asUnavailable, forbidden, shuttingDown } from "./route-errors";
import { type Inputs, type Params, parseBody, parseParams, queryOf } from "./route-inputs";

/** For routes without path parameters of their own. */
export type NoParams = Record<never, never>;
type CrewCaller = {
  principal: Principal;
  crew: CrewDef;
  /** Set when the crew is `@<deployment>`: a crew served by a remote deployment. */
  deployment?: Deployment;
};
export type CrewRouteContext<P extends Params, B = undefined, Q = undefined> = CrewCaller & {
  request: Request;
  params: P & { crew: string };
  body: B;
  query: Q;
};

type RouteSpec<C, P, B, Q> = Inputs<B, Q> & {
  /**
   * What the caller was checked for, or why nothing was (route-actions.ts): required for every
   * method but GET, which without it answers 500 (and fails tests/unit/route-actions.test.ts).
   */
  action?: RouteAction;
  /** Who is calling (and what it addresses), or an error: before anything else is looked at. */
  caller: (request: Request, params: P) => Promise<C>;
  /** The rate-limit bucket of this caller; null for none (callers proven by a signature). */
  rateKey: (caller: C, request: Request) => string | null;
  /** Integration routes add CrewAI's `error: {code, message}` member to every problem body. */
  shape?: ProblemShape;
};

export type Ctx<C, P, B, Q> = { request: Request; caller: C; params: P; body: B; query: Q };

/**
 * The one builder every API route is made with. In order: refuse a method that changes things on
 * a route that names no action (500), refuse while this instance drains (503), identify the
 * caller, rate-limit it (429), check the path parameters (404), parse the query and the body
 * against their schemas within the body limit, run the handler (and, in the HTTP tests, check its
 * answer). Every failure becomes one problem body.
 */
function build<C, P extends Params, B, Q>(
  spec: RouteSpec<C, P, B, Q>,
  handler: (ctx: Ctx<C, P, B, Q>) => Promise<Response>,
) {
  return withAction<P>(async (request, context) => {
    try {
      assertDeclared(request, spec.action);
      if (isDraining()) throw shuttingDown();
      const raw = await context.params;
      const caller = await spec.caller(request, raw);
      const key = spec.rateKey(caller, request);
      if (key) checkRateLimitFor(key);
      // After the caller: a bad token learns nothing, not even which ids are well-formed.
      const params = parseParams(spec.params, raw);
      const query = spec.query
        ? parseInput(spec.query, queryOf(request, spec.repeatable), "query")
        : (undefined as Q);
      const body = spec.body ? await parseBody(request, spec) : (undefined as B);
      const response = await handler({ request, caller, params, body, query });
      return spec.response && checkingResponses()
        ? await checkResponse(spec.response, request, response)
        : response;
    } catch (err) {
      return toProblem(asUnavailable(err) ?? err, spec.shape);
    }
  }, spec.action);
}

/** For routes with a caller of their own (no token): what they may name (route-actions.ts). */
type OwnCallerAction = Extract<CheckedInside, "secret" | "refused">;

/** A route with a caller of its own. Every method but GET names why no role is checked. */
export function route<C, P extends Params = Params, B = undefined, Q = undefined>(
  spec: RouteSpec<C, P, B, Q> & { action: OwnCallerAction },
  handler: (ctx: Ctx<C, P, B, Q>) => Promise<Response>,
): Declared<P>;
export function route<C, P extends Params = Params, B = undefined, Q = undefined>(
  spec: RouteSpec<C, P, B, Q> & { action?: undefined },
  handler: (ctx: Ctx<C, P, B, Q>) => Promise<Response>,
): Handler<P>;
export function route<C, P extends Params, B, Q>(
  spec: RouteSpec<C, P, B, Q> & { action?: OwnCallerAction },
  handler: (ctx: Ctx<C, P, B, Q>) => Promise<Response>,
) {
  return build(spec, handler);
}

/** For routes whose caller proves itself inside (signed webhooks, the setup code): no token. */
export const noCaller = { caller: async () => null, rateKey: () => null };

export type RouteContext<P extends Params, B = undefined, Q = undefined> = {
  request: Request;
  principal: Principal;
  params: P;
  body: B;
  query: Q;
};

/**
 * What a caller with a token or a session must be allowed to do: an action of lib/auth/roles.ts,
 * or why the handler checks instead (route-actions.ts; then the caller needs only to be signed in).
 * Without one a route answers GET only, as a read.
 */
type TokenAction = Action | Exclude<CheckedInside, "secret">;
type ApiOptions<B, Q> = Inputs<B, Q> & {
  /** Only the dashboard's session: a token gets this 403 before the body is read. */
  sessionOnly?: string;
};

/**
 * Every API handler called with a token or the dashboard's session: authenticate first (a bad
 * token learns nothing, not even whether the thing exists), rate-limit, check that the caller may
 * take `action`, then parse and run (see build).
 */
export function apiRoute<P extends Params = Params, B = undefined, Q = undefined>(
  handler: (ctx: RouteContext<P, B, Q>) => Promise<Response>,
  options: ApiOptions<B, Q> & { action: TokenAction },
): Declared<P>;
export function apiRoute<P extends Params = Params, B = undefined, Q = undefined>(
  handler: (ctx: RouteContext<P, B, Q>) => Promise<Response>,
  options?: ApiOptions<B, Q> & { action?: undefined },
): Handler<P>;
export function apiRoute<P extends Params, B, Q>(
  handler: (ctx: RouteContext<P, B, Q>) => Promise<Response>,
  { action, sessionOnly, ...inputs }: ApiOptions<B, Q> & { action?: TokenAction } = {},
) {
  return build<Principal, P, B, Q>(
    {
      ...inputs,
      action,
      async caller(request) {
        const principal = await principalFor(request, action);
        if (sessionOnly && principal.kind !== "session")
          throw new AppError("forbidden", 403, sessionOnly);
        return principal;
      },
      rateKey: () => null,
    },
    ({ caller, ...ctx }) => handler({ ...ctx, principal: caller }),
  );
}

async function principalFor(request: Request, action: TokenAction | undefined) {
  const principal = await authenticate(request);
  checkRateLimit(principal); // before the permission check: refusals count too
  const needs = isAction(action) ? action : "read"; // checked inside: signed in is enough here
  if (!can(principal, needs)) throw forbidden(needs);
  return principal;
}

/**
 * The tracker actions, called by agent runtimes with an integration token (not a person's or an
 * organization's): the same pipeline, rate-limited per token, errors in CrewAI's shape too.
 */
export function integrationRoute<P extends Params = Params, B = undefined, Q = undefined>(
  handler: (ctx: Ctx<IntegrationAccess, P, B, Q>) => Promise<Response>,
  inputs: Inputs<B, Q> & { action: "per-call" },
): Declared<P>;
export function integrationRoute<P extends Params = Params, B = undefined, Q = undefined>(
  handler: (ctx: Ctx<IntegrationAccess, P, B, Q>) => Promise<Response>,
  inputs?: Inputs<B, Q> & { action?: undefined },
): Handler<P>;
export function integrationRoute<P extends Params, B, Q>(
  handler: (ctx: Ctx<IntegrationAccess, P, B, Q>) => Promise<Response>,
  inputs: Inputs<B, Q> & { action?: "per-call" } = {},
) {
  return build<IntegrationAccess, P, B, Q>(
    {
      ...inputs,
      shape: "integration",
      caller: async (request) => integrationAccess(await getDb(), request),
      rateKey: (_access, request) =>
        `integration:${hashToken(request.headers.get("authorization") ?? "")}`,
    },
    handler,
  );
}

type CrewOptions<B, Q> = Inputs<B, Q> & {
  /** The route addresses a run already started: it answers while the crew's files are broken. */
  existingRun?: boolean;
};

/**
 * Handlers under /api/crews/<slug>: as apiRoute, with the crew resolved after the token check.
 * `@<deployment>` names a remote deployment's crew: the same API, answered by forwarding to it.
 */
export function crewRoute<P extends Params = Params, B = undefined, Q = undefined>(
  handler: (ctx: CrewRouteContext<P, B, Q>) => Promise<Response>,
  options: CrewOptions<B, Q> & { action: TokenAction },
): Declared<P & { crew: string }>;
export function crewRoute<P extends Params = Params, B = undefined, Q = undefined>(
  handler: (ctx: CrewRouteContext<P, B, Q>) => Promise<Response>,
  options?: CrewOptions<B, Q> & { action?: undefined },
): Handler<P & { crew: string }>;
export function crewRoute<P extends Params, B, Q>(
  handler: (ctx: CrewRouteContext<P, B, Q>) => Promise<Response>,
  options: CrewOptions<B, Q> & { action?: TokenAction } = {},
) {
  return buildCrewRoute(handler, options);
}

function buildCrewRoute<P extends Params, B, Q>(
  handler: (ctx: CrewRouteContext<P, B, Q>) => Promise<Response>,
  { action, existingRun = false, ...inputs }: CrewOptions<B, Q> & { action?: TokenAction },
) {
  return build<CrewCaller, P & { crew: string }, B, Q>(
    {
      ...inputs,
      action,
      // The token first (a bad one learns nothing), then the crew (404), then the body.
      async caller(request, params) {
        const principal = await principalFor(request, action);
        const slug = params.crew;
        if (!slug.startsWith("@"))
          return { principal, crew: getCrewOrThrow(slug, { existingRun }) };
        const deployment = await getDeploymentOrThrow(await getDb(), slug.slice(1));
        return { principal, crew: remoteCrewDef(deployment), deployment };
      },
      rateKey: () => null,
    },
    ({ caller, ...ctx }) => handler({ ...ctx, ...caller }),
  );
}

/** crewRoute for a run already started (status, events, resume, stop): see getCrewOrThrow. */
export function runRoute<P extends Params = Params, B = undefined, Q = undefined>(
  handler: (ctx: CrewRouteContext<P, B, Q>) => Promise<Response>,
  options: Inputs<B, Q> & { action: TokenAction },
): Declared<P & { crew: string }>;
export function runRoute<P extends Params = Params, B = undefined, Q = undefined>(
  handler: (ctx: CrewRouteContext<P, B, Q>) => Promise<Response>,
  options?: Inputs<B, Q> & { action?: undefined },
): Handler<P & { crew: string }>;
export function runRoute<P extends Params, B, Q>(
  handler: (ctx: CrewRouteContext<P, B, Q>) => Promise<Response>,
  options: Inputs<B, Q> & { action?: TokenAction } = {},
) {
  return buildCrewRoute(handler, { ...options, existingRun: true });
}

const methodNotAllowed = (allow: string) =>
  crewRoute(
    async ({ request }) => {
      throw new AppError(
        "method-not-allowed",
        405,
        `${request.method} is not supported here; use ${allow}.`,
        {},
        { allow },
      );
    },
    { action: "refused" },
  );

/**
 * Handlers for the methods a crew route does not support: 405 as a problem body with `Allow`,
 * after the same token check (so an unauthenticated caller learns nothing about the route).
 * Use: `export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");`
 */
export function otherMethods(allow: string) {
  const handler = methodNotAllowed(allow);
  return { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler };
}
