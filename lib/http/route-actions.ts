import { type Action, isAction } from "@/lib/auth/roles";

// What a route's caller must be allowed to do. Every method but GET names it: the builder must
// not take a route that changes something for a read because its author forgot to say.

/**
 * Why a route's builder checks no action's role, and where the check is instead: a route names
 * one of these, explicitly, when no single action of lib/auth/roles.ts says who may call it. (A
 * route with a token still needs one that is signed in: apiRoute, crewRoute.)
 */
const CHECKED_INSIDE = {
  self:
    "acts only on the caller's own records (preferences, saved views, tokens): " +
    "the handler scopes each record to the caller",
  "per-call":
    "each call names what it does (a protocol's method, a tracker action): " +
    "the handler checks that call's action",
  secret:
    "no token: a credential of the route's own (a signature, a per-run secret, the setup code, " +
    "the local admin secret) is checked before anything is read",
  refused: "answers only a refusal (404, 405): it changes nothing",
} as const;
type CheckedInside = keyof typeof CHECKED_INSIDE;
export type RouteAction = Action | CheckedInside;

export const MUTATING = ["POST", "PUT", "PATCH", "DELETE"] as const;

/** A handler as Next.js calls it. */
type Handler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;
/** A handler that names its action: what every non-GET export of a route file must be. */
export type Declared<P> = Handler<P> & { readonly action: RouteAction };
/** A route file's exports, as tests/unit/route-actions.test.ts checks every one with tsc. */
export type RouteModule = Readonly<Record<string, unknown>> & {
  readonly [M in (typeof MUTATING)[number]]?: { readonly action: RouteAction };
};

const isRouteAction = (value: unknown): value is RouteAction =>
  isAction(value) || (typeof value === "string" && Object.hasOwn(CHECKED_INSIDE, value));

/** The action a route file's export names, if it is a handler that names one. */
export function declaredAction(handler: unknown): RouteAction | undefined {
  if (typeof handler !== "function" || !("action" in handler)) return undefined;
  return isRouteAction(handler.action) ? handler.action : undefined;
}

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The backstop behind the types: a route that names no action answers any other method with a
 * 500 before it looks at anything, and the log says which.
 */
export function assertDeclared(request: Request, action: RouteAction | undefined) {
  if (action || SAFE.has(request.method)) return;
  throw new Error(
    `${request.method} ${new URL(request.url).pathname} names no action: give its route builder ` +
      "`action` (lib/http/route-actions.ts); until then it refuses every call.",
  );
}
