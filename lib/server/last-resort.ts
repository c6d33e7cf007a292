import { isConnectionError } from "@/lib/db/connection-errors";
import { errorMessage } from "@/lib/errors";

/**
 * For `npm run worker`: an error that nothing handled. A lost database connection is expected
 * (PostgreSQL restarting, a failover) and every loop retries on its own, so it is logged in one
 * line and the process keeps going. Anything else means a state nobody planned for: log it and
 * exit 1, as Node would, so a supervisor restarts a clean process.
 *
 * (The web process needs none: Next.js logs uncaught errors and keeps serving.)
 */
export function survivesConnectionErrors(log = console.error) {
  const handle = (kind: string) => (err: unknown) => {
    if (isConnectionError(err)) {
      log(`[crewdeck] ${kind} database connection error, ignored: ${errorMessage(err)}`);
      return;
    }
    log(`[crewdeck] ${kind}:`, err);
    process.exit(1);
  };
  process.on("uncaughtException", handle("unhandled"));
  process.on("unhandledRejection", handle("unhandled rejected"));
}
