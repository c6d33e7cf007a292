import type { Principal } from "@/lib/auth/principal";
import { acquireStreamSlot } from "./rate-limit";

const HEARTBEAT_MS = 15_000;

export type SseSink = {
  /** Writes raw Server-Sent Events text; nothing once the stream has ended. */
  send: (text: string) => void;
  /** Ends the stream from the server's side. */
  close: () => void;
};

/**
 * A Server-Sent Events response held in one of the caller's stream slots (429/503 at the caps)
 * until either side ends it: the browser going away, or `close`. `follow` subscribes and returns
 * its unsubscribe, which runs exactly once however the stream ends; a comment every 15 s keeps
 * proxies from timing the connection out.
 */
export function sseResponse(
  request: Request,
  principal: Principal,
  follow: (sink: SseSink) => Promise<() => void>,
  /** A slot taken beforehand (before starting what the stream follows), released with it. */
  slot: () => void = acquireStreamSlot(principal),
): Response {
  const release = slot;
  const encoder = new TextEncoder();
  let cleanup = () => {};
  // Set once the stream ends from either side; after that nothing may touch the controller.
  let closed = false;

  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          close(); // the other side is gone: free its slot and subscription
        }
      };
      const close = () => {
        if (closed) return;
        closed = true;
        release();
        cleanup();
        try {
          controller.close();
        } catch {
          // already closed by a cancel
        }
      };
      // Listened to before subscribing: a client that leaves meanwhile still frees its slot.
      request.signal.addEventListener("abort", close);
      if (request.signal.aborted) close();
      let unfollow: () => void;
      try {
        unfollow = await follow({ send, close });
      } catch (err) {
        closed = true;
        release();
        throw err;
      }
      if (closed) {
        unfollow(); // the browser left while we were subscribing, or it ended at once
        return;
      }
      const heartbeat = setInterval(() => send(": keep-alive\n\n"), HEARTBEAT_MS);
      cleanup = () => {
        clearInterval(heartbeat);
        unfollow();
      };
      send("retry: 1000\n\n");
    },
    cancel() {
      closed = true;
      release();
      cleanup();
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
      connection: "keep-alive",
    },
  });
}
