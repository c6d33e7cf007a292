// Graceful shutdown on SIGTERM/SIGINT, for the web process and `npm run worker` alike.
// On globalThis: instrumentation and the route handlers are separate bundles with their own
// copies of this module, and both must see the one flag.

import { errorMessage } from "@/lib/errors";

declare global {
  var __crewdeckDraining: boolean | undefined;
}
const slot = globalThis;

/** True once the process is shutting down: the API then answers 503 so clients go elsewhere. */
export const isDraining = () => slot.__crewdeckDraining === true;

/**
 * On the first SIGTERM or SIGINT: mark the process draining, run `stop` (bounded by its own
 * deadline), exit 0. A second signal, or `stop` overrunning by 10 s, exits at once with 1.
 *
 * Next.js's own handler closes the HTTP server, waits for every open connection (live
 * timelines never end by themselves) and exits 143, which would cut the worker's hand-back
 * short; so in the web process it is replaced rather than raced.
 */
export function onShutdown(stop: () => Promise<void>, { deadlineMs }: { deadlineMs: number }) {
  const handle = (signal: NodeJS.Signals) => {
    if (isDraining()) {
      console.error(`${signal} again: exiting now.`);
      process.exit(1);
    }
    slot.__crewdeckDraining = true;
    console.log(`${signal}: shutting down (up to ${Math.round(deadlineMs / 1000)} s)…`);
    setTimeout(() => {
      console.error("Shutdown overran its deadline: exiting.");
      process.exit(1);
    }, deadlineMs + 10_000).unref();
    stop()
      .catch((err) => console.error(`Shutdown: ${errorMessage(err)}`))
      .finally(() => {
        console.log("Shut down cleanly.");
        process.exit(0);
      });
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.removeAllListeners(signal);
    process.on(signal, handle);
  }
}
