import { EventEmitter } from "node:events";
import type { Db } from "@/lib/db/types";
import { EXECUTION_CHANNEL } from "@/lib/runs/execution-cache";

// Live fan-out for timelines: one LISTEN per process on the channel every state change
// notifies (from whichever process wrote it), passed on to the subscribers of that execution.
const slot = globalThis as unknown as {
  __crewdeckLive?: { emitter: EventEmitter; started?: Promise<void> };
};
slot.__crewdeckLive ??= { emitter: new EventEmitter().setMaxListeners(0) };
const live = slot.__crewdeckLive;

export async function subscribeToExecution(
  db: Db,
  id: string,
  onChange: () => void,
): Promise<() => void> {
  live.started ??= db.listen(
    EXECUTION_CHANNEL,
    (changed) => live.emitter.emit(changed),
    (listening) => {
      // Back from a lost connection: changes may have been missed, so everyone re-reads.
      if (listening) for (const name of live.emitter.eventNames()) live.emitter.emit(name);
    },
  );
  await live.started;
  live.emitter.on(id, onChange);
  return () => live.emitter.off(id, onChange);
}
