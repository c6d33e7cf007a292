import { formatSSEEvent, type StreamResponse } from "@a2a-js/sdk";
import type { StatusResponse } from "@/lib/contract/status";
import { sseResponse } from "@/lib/http/sse";
import { followRun } from "../follow";
import type { Caller } from "./params";
import { artifactUpdateOf, settled, stateOf, statusUpdateOf, taskEvent } from "./task";

/**
 * A task's events as A2A streams them: the Task first, then a statusUpdate at each change of
 * state and the result as an artifactUpdate, until the task finishes or waits for input (or
 * `signal` aborts: the stream was abandoned).
 */
export async function* taskEvents(
  caller: Caller,
  run: StatusResponse,
  signal: AbortSignal,
): AsyncGenerator<StreamResponse, void, undefined> {
  yield taskEvent(run);
  if (settled(run)) return;
  let last = stateOf(run);
  yield* pushed((emit) =>
    followRun(caller.db, caller.principal, run.kickoff_id, {
      crew: run.crew,
      signal,
      untilWaiting: true,
      onUpdate: ({ run: now }) => {
        if (stateOf(now) === last) return;
        last = stateOf(now);
        if (now.status === "completed") emit(artifactUpdateOf(now));
        emit(statusUpdateOf(now));
      },
    }),
  );
}

/** What `source` emits, as a generator that ends when its promise settles (however it does). */
export async function* pushed<T>(
  source: (emit: (item: T) => void) => Promise<unknown>,
): AsyncGenerator<T, void, undefined> {
  const queue: T[] = [];
  let done = false;
  let wake = () => {};
  source((item) => {
    queue.push(item);
    wake();
  })
    .catch(() => {}) // a follow that fails or is abandoned ends the stream, as its end does
    .finally(() => {
      done = true;
      wake();
    });
  for (;;) {
    const next = queue.shift();
    if (next !== undefined) yield next;
    else if (done) return;
    else await new Promise<void>((resolve) => (wake = resolve));
  }
}

/**
 * JSON-RPC answers written as Server-Sent Events (the first already read), in one of the
 * caller's stream slots taken beforehand; `stop` is called once however the stream ends.
 */
export function sseOf(
  caller: Caller,
  first: unknown,
  rest: AsyncGenerator<unknown, void, undefined>,
  slot: () => void,
  stop: () => void,
): Response {
  return sseResponse(
    caller.request,
    caller.principal,
    async ({ send, close }) => {
      send(formatSSEEvent(first));
      (async () => {
        for await (const answer of rest) send(formatSSEEvent(answer));
      })()
        .catch(() => {})
        .finally(close);
      return stop;
    },
    slot,
  );
}
