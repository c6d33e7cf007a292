import type { Principal } from "@/lib/auth/principal";
import { acquireStreamSlot } from "@/lib/http/rate-limit";

// A request a protocol holds open until a run moves (a blocking A2A send, an MCP call waiting
// for its result) costs a connection as a stream does: it takes one of the caller's stream
// slots (429 past STREAM_LIMIT_PER_CALLER) for as long as it is held.

/** Runs `wait` in one of the caller's stream slots. */
export async function inStreamSlot<T>(principal: Principal, wait: () => Promise<T>): Promise<T> {
  const release = acquireStreamSlot(principal);
  try {
    return await wait();
  } finally {
    release();
  }
}

/**
 * The response, `done` called once its body has been read to the end or abandoned (a slot
 * released, a per-request server closed): exactly once, however it ends.
 */
export function releasedWhenDone(response: Response, done: () => void, signal: AbortSignal) {
  let called = false;
  const release = () => {
    if (called) return;
    called = true;
    done();
  };
  if (!response.body) {
    release();
    return response;
  }
  signal.addEventListener("abort", release);
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else controller.enqueue(value);
      } catch (err) {
        release();
        controller.error(err);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}
