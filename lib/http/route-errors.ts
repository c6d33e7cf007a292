import type { Action } from "@/lib/auth/roles";
import { isConnectionError } from "@/lib/db/connection-errors";
import { AppError } from "@/lib/errors";

// The refusals the route builder (routes.ts) answers before or around a handler.

/** While this instance drains for shutdown: another instance, or this one restarted, answers. */
export const shuttingDown = () =>
  new AppError(
    "unavailable",
    503,
    "This instance is shutting down; retry (another instance, or this one restarted, will answer).",
    {},
    { "retry-after": "2", connection: "close" },
  );

export function forbidden(action: Action) {
  return new AppError(
    "forbidden",
    403,
    action === "manage" || action === "admin"
      ? "This needs an organization token or an administrator."
      : `Your role does not allow this (${action}); ask an administrator.`,
  );
}

/** A database that is down is a 503 the client can retry, not a 500. */
export function asUnavailable(err: unknown): AppError | undefined {
  if (!isConnectionError(err)) return undefined;
  return new AppError(
    "unavailable",
    503,
    "The database is unreachable; retry shortly.",
    {},
    { "retry-after": "5" },
  );
}
