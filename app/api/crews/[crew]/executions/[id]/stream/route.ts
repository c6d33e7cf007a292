// GET /executions/{id}/stream — the event log as Server-Sent Events: everything after
// `Last-Event-ID` (or ?after=N), then each new event as it is written, until the run ends.
import { getDb } from "@/lib/db";
import { followExecution } from "@/lib/events/live";
import { acquireStreamSlot } from "@/lib/http/rate-limit";
import { otherMethods, runRoute } from "@/lib/http/routes";
import { getExecutionOrThrow } from "@/lib/runs/get-execution";

export const dynamic = "force-dynamic";

const HEARTBEAT_MS = 15_000;
const FINAL_EVENTS = new Set(["execution_completed", "execution_failed", "execution_cancelled"]);

export const GET = runRoute<{ id: string }>(async ({ request, principal, crew, params }) => {
  const db = await getDb();
  await getExecutionOrThrow({ db, crew: crew.slug, id: params.id, principal });
  const fromHeader = Number(request.headers.get("last-event-id"));
  const fromQuery = Number(new URL(request.url).searchParams.get("after"));
  const last =
    Number.isInteger(fromHeader) && fromHeader > 0
      ? fromHeader
      : Number.isInteger(fromQuery) && fromQuery > 0
        ? fromQuery
        : 0;
  // Held until the stream ends from either side (429/503 when the caller or server is at its cap).
  const release = acquireStreamSlot(principal);
  const encoder = new TextEncoder();
  let cleanup = () => {};
  // Set once the stream ends from either side: the browser going away (cancel/abort) or the run
  // ending. After that nothing may touch the controller.
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
        unfollow = await followExecution(
          db,
          params.id,
          last,
          (events) => {
            let ended = false;
            for (const e of events) {
              send(`id: ${e.seq}\nevent: execution\ndata: ${JSON.stringify(e)}\n\n`);
              ended ||= FINAL_EVENTS.has(e.type);
            }
            if (ended) {
              send("event: end\ndata: {}\n\n");
              close();
            }
          },
          close,
        );
      } catch (err) {
        closed = true;
        release();
        throw err;
      }
      if (closed) {
        unfollow(); // the browser left while we were subscribing, or the run had already ended
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
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
