import type { StatusResponse } from "@/lib/contract/status";
import { sseResponse } from "@/lib/http/sse";
import { followRun } from "../follow";
import type { Caller, RpcId } from "./params";
import { artifactUpdateOf, settled, stateOf, statusUpdateOf, taskOf } from "./task";

/**
 * A task streamed as A2A's JSON-RPC SSE: the Task first, then a statusUpdate at each change of
 * state and the result as an artifactUpdate, until the task finishes or waits for input.
 */
export function streamTask(
  id: RpcId,
  run: StatusResponse,
  caller: Caller,
  slot?: () => void,
): Response {
  return sseResponse(
    caller.request,
    caller.principal,
    async ({ send, close }) => {
      const event = (result: object) =>
        send(`data: ${JSON.stringify({ jsonrpc: "2.0", id, result })}\n\n`);
      event({ task: taskOf(run) });
      if (settled(run)) {
        close();
        return () => {};
      }
      const stop = new AbortController();
      let last = stateOf(run);
      followRun(caller.db, caller.principal, run.kickoff_id, {
        crew: run.crew,
        signal: stop.signal,
        untilWaiting: true,
        onUpdate: ({ run: now }) => {
          if (stateOf(now) === last) return;
          last = stateOf(now);
          if (now.status === "completed") event(artifactUpdateOf(now));
          event(statusUpdateOf(now));
        },
      })
        .catch(() => {})
        .finally(close);
      return () => stop.abort();
    },
    slot,
  );
}
