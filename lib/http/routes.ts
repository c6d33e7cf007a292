import "server-only";
import { authenticate } from "@/lib/auth/authenticate";
import type { Principal } from "@/lib/auth/principal";
import { type Action, can } from "@/lib/auth/roles";
import { getCrewOrThrow } from "@/lib/crew/registry";
import type { CrewDef } from "@/lib/crew/schema";
import { getDb } from "@/lib/db";
import { remoteCrewDef } from "@/lib/deployments/remote-runs";
import { type Deployment, getDeploymentOrThrow } from "@/lib/deployments/store";
import { AppError } from "@/lib/errors";
import { isDraining } from "@/lib/server/shutdown";
import { toProblem } from "./problem";
import { checkRateLimit } from "./rate-limit";

type Params = Record<string, string | string[]>;
export type CrewRouteContext<P extends Params> = {
  request: Request;
  principal: Principal;
  crew: CrewDef;
  params: P & { crew: string };
  /** Set when the crew is `@<deployment>`: a crew served by a remote deployment. */
  deployment?: Deployment;
};

export type RouteContext<P extends Params> = { request: Request; principal: Principal; params: P };

/**
 * Every API handler: authenticate first (a bad token learns nothing, not even whether the thing
 * exists), check that the caller may take `action`, then run; any error becomes a problem body.
 */
export function apiRoute<P extends Params = Params>(
  handler: (ctx: RouteContext<P>) => Promise<Response>,
  { action = "read" }: { action?: Action } = {},
) {
  return async (request: Request, context: { params: Promise<P> }) => {
    try {
      if (isDraining()) throw shuttingDown();
      const principal = await authenticate(request);
      checkRateLimit(principal);
      if (!can(principal, action)) throw forbidden(action);
      return await handler({ request, principal, params: await context.params });
    } catch (err) {
      return toProblem(asUnavailable(err) ?? err);
    }
  };
}

/**
 * Handlers under /api/crews/<slug>: as apiRoute, with the crew resolved after the token check.
 * `@<deployment>` names a remote deployment's crew: the same API, answered by forwarding to it.
 */
export function crewRoute<P extends Params = Params>(
  handler: (ctx: CrewRouteContext<P>) => Promise<Response>,
  options: { action?: Action } = {},
) {
  return apiRoute<P & { crew: string }>(async (ctx) => {
    const slug = ctx.params.crew;
    if (!slug.startsWith("@")) return handler({ ...ctx, crew: getCrewOrThrow(slug) });
    const deployment = await getDeploymentOrThrow(await getDb(), slug.slice(1));
    return handler({ ...ctx, crew: remoteCrewDef(deployment), deployment });
  }, options);
}

const shuttingDown = () =>
  new AppError(
    "unavailable",
    503,
    "This instance is shutting down; retry (another instance, or this one restarted, will answer).",
    {},
    { "retry-after": "2", connection: "close" },
  );

function forbidden(action: Action) {
  return new AppError(
    "forbidden",
    403,
    action === "manage" || action === "admin"
      ? "This needs an organization token or an administrator."
      : `Your role does not allow this (${action}); ask an administrator.`,
  );
}

const UNREACHABLE = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "57P01",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08006",
]);

/** A database that is down is a 503 the client can retry, not a 500. */
export function asUnavailable(err: unknown): AppError | undefined {
  const code = (err as { code?: string } | null)?.code;
  const message = (err as Error | null)?.message ?? "";
  if (
    (code && UNREACHABLE.has(code)) ||
    /Connection terminated|timeout exceeded when trying to connect/i.test(message)
  ) {
    return new AppError(
      "unavailable",
      503,
      "The database is unreachable; retry shortly.",
      {},
      { "retry-after": "5" },
    );
  }
  return undefined;
}

const methodNotAllowed = (allow: string) =>
  crewRoute(async ({ request }) => {
    throw new AppError(
      "method-not-allowed",
      405,
      `${request.method} is not supported here; use ${allow}.`,
      {},
      { allow },
    );
  });

/**
 * Handlers for the methods a crew route does not support: 405 as a problem body with `Allow`,
 * after the same token check (so an unauthenticated caller learns nothing about the route).
 * Use: `export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");`
 */
export function otherMethods(allow: string) {
  const handler = methodNotAllowed(allow);
  return { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler };
}
