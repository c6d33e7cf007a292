import { errorCode, errorField } from "@/lib/errors";

// Errors that mean "the database is unreachable right now" (down, restarting, connection cut),
// as opposed to a bad query: worth retrying later, never worth failing a run or the process for.
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTCONN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "57P01", // admin_shutdown: terminating connection due to administrator command
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now: the database system is starting up / shutting down
  "08000",
  "08001",
  "08003",
  "08006",
]);

// node-postgres reports a lost socket with plain Errors that carry no code.
const UNREACHABLE_MESSAGES =
  /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|Connection is closed/i;

export function isConnectionError(err: unknown): boolean {
  if (!err || typeof err !== "object") return false;
  const code = errorCode(err);
  const message = errorField(err, "message");
  if (code !== undefined && UNREACHABLE_CODES.has(code)) return true;
  if (typeof message === "string" && UNREACHABLE_MESSAGES.test(message)) return true;
  // AggregateError (a host resolving to several addresses, all refusing) and wrapped causes.
  const nested = errorField(err, "errors");
  return (
    (Array.isArray(nested) && nested.some(isConnectionError)) ||
    isConnectionError(errorField(err, "cause"))
  );
}
