import "server-only";
import { authenticate } from "@/lib/auth/authenticate";
import type { Principal } from "@/lib/auth/principal";
import { type Action, can } from "@/lib/auth/roles";
import { getCrewOrThrow } from "@/lib/crew/registry";
import type { CrewDef } from "@/lib/crew/schema";
import { AppError, toProblem } from "./problem";

type Params = Record<string, string | string[]>;
export type CrewRouteContext<P extends Params> = {
  request: Request;
  principal: Principal;
  crew: CrewDef;
  params: P & { crew: string };
};

/**
 * Every handler under /api/crews/<slug>: authenticate first (a bad token learns nothing, not even
 * whether the crew exists), then resolve the crew, then run; any error becomes a problem body.
 */
export function crewRoute<P extends Params = Params>(
  handler: (ctx: CrewRouteContext<P>) => Promise<Response>,
  { action = "read" }: { action?: Action } = {},
) {
  return async (request: Request, context: { params: Promise<P & { crew: string }> }) => {
    try {
      const principal = await authenticate(request);
      if (!can(principal, action)) throw forbidden(action);
      const params = await context.params;
      const crew = getCrewOrThrow(params.crew);
      return await handler({ request, principal, crew, params });
    } catch (err) {
      return toProblem(asUnavailable(err) ?? err);
    }
  };
}

/** Handlers for organization tokens and administrators (user tokens and other roles get 403). */
export function orgRoute<P extends Params = Params>(
  handler: (ctx: { request: Request; principal: Principal; params: P }) => Promise<Response>,
) {
  return async (request: Request, context: { params: Promise<P> }) => {
    try {
      const principal = await authenticate(request);
      if (
        principal.kind === "user" ||
        (principal.kind === "session" && principal.role !== "admin")
      ) {
        throw new AppError(
          "forbidden",
          403,
          "This needs an organization token or an administrator's session.",
        );
      }
      return await handler({ request, principal, params: await context.params });
    } catch (err) {
      return toProblem(asUnavailable(err) ?? err);
    }
  };
}

function forbidden(action: Action) {
  return new AppError(
    "forbidden",
    403,
    `Your role does not allow this (${action}); ask an administrator.`,
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
