import crypto from "node:crypto";
import os from "node:os";
import { isConnectionError } from "@/lib/db/connection-errors";
import type { Db } from "@/lib/db/types";
import { errorMessage } from "@/lib/errors";
import { observeDelivery } from "@/lib/metrics/observe";
import { createNapper, idleBackoff } from "@/lib/util/napper";
import { type AttemptResult, postWebhook } from "@/lib/webhooks/deliver";
import { WEBHOOK_CHANNEL } from "@/lib/webhooks/enqueue";
import { isPushKind, pushHeaders } from "@/lib/webhooks/protocol-push";
import { createAttemptRecorder } from "@/lib/webhooks/record-attempts";
import { signatureHeaders } from "@/lib/webhooks/signing";
import { authorizationOf } from "@/lib/webhooks/stream-subscription";
import { attemptOutcome, claimPlan } from "./delivery-decisions";
import { type Claimed, claimDue, failUnsent, recordGone } from "./delivery-outbox";
import { isNotification, sendNotification } from "./send";

export type DeliveryWorkerOptions = {
  db: Db;
  secret: string;
  schedule: number[];
  timeoutMs: number;
  concurrency: number;
  pollMs?: number;
  log?: (msg: string) => void;
};

/**
 * Works the webhook outbox: claims due deliveries with a lease (so a crashed process's are
 * retried by another), POSTs them signed, records every attempt, schedules retries. An
 * execution's step (and streamed) events go to each endpoint in sequence order: only its oldest
 * unfinished one is ever due (other executions' events do not wait for it).
 *
 * Throughput: connections to an endpoint are kept alive (deliver.ts), attempts are recorded in
 * batches (record-attempts.ts), and the outbox is claimed again once half the slots are free
 * (or none is busy) rather than on every finished delivery.
 */
export function startDeliveryWorker({
  db,
  secret,
  schedule,
  timeoutMs,
  concurrency,
  pollMs = 200,
  log = console.log,
}: DeliveryWorkerOptions) {
  const id = `${os.hostname()}/${process.pid}/${crypto.randomBytes(3).toString("hex")}`;
  const napper = createNapper();
  const worker: Worker = {
    db,
    id,
    secret,
    schedule,
    timeoutMs,
    napper,
    recorder: createAttemptRecorder(db, id),
    inFlight: 0,
    stopping: false,
    flushing: false,
    running: new Set(),
  };
  db.listen(WEBHOOK_CHANNEL, () => napper.wake()).catch((err) =>
    log(`[webhooks] LISTEN failed: ${errorMessage(err)}`),
  );
  const loop = workLoop(worker, { concurrency, pollMs, log });

  return {
    id,
    /**
     * Delivers what is due for up to `flushMs` (an attempt that fails is left for its retry, not
     * retried now), then stops claiming and lets the attempts under way finish.
     */
    async stop(flushMs = 0) {
      worker.flushing = true;
      napper.wake();
      const timer = setTimeout(() => {
        worker.stopping = true;
        napper.wake();
      }, flushMs);
      await loop;
      clearTimeout(timer);
      worker.stopping = true;
      await Promise.allSettled([...worker.running]);
    },
  };
}

/** One worker: what it delivers with, and its state. */
type Worker = Omit<DeliveryWorkerOptions, "concurrency" | "pollMs" | "log"> & {
  id: string;
  napper: ReturnType<typeof createNapper>;
  recorder: ReturnType<typeof createAttemptRecorder>;
  inFlight: number;
  stopping: boolean;
  // Shutting down, but delivering what is due first: the loop ends once nothing is left to claim.
  flushing: boolean;
  running: Set<Promise<void>>;
};

/** Claims what is due while slots are free, and naps in between, until stopped. */
async function workLoop(
  w: Worker,
  { concurrency, pollMs, log }: { concurrency: number; pollMs: number; log: (msg: string) => void },
) {
  const naps = idleBackoff(pollMs);
  let failing = false;
  let claimedAt = 0;
  while (!w.stopping) {
    let found = false;
    try {
      // A slot is busy until its attempt is recorded, so an execution's next step is claimable
      // by then.
      const { room, worthIt } = claimPlan({
        concurrency,
        inFlight: w.inFlight,
        sinceClaimMs: Date.now() - claimedAt,
        pollMs,
      });
      const batch = worthIt ? await claimDue(w.db, w.id, (w.timeoutMs * 2) / 1000, room) : [];
      if (worthIt) claimedAt = Date.now();
      failing = false;
      // A claim put off while slots are busy counts as work: the free slot waits a poll at most.
      found = batch.length > 0 || (room > 0 && !worthIt);
      for (const d of batch) dispatch(w, d, log);
      if (worthIt && batch.length === room) continue; // more may be due right now
      if (w.flushing && batch.length === 0 && w.inFlight === 0) break;
    } catch (err) {
      // A database outage is reported once by the Db; back off instead of retrying (and
      // logging) every poll.
      if (!isConnectionError(err)) log(`[webhooks] cannot claim deliveries: ${errorMessage(err)}`);
      failing = true;
    }
    // New deliveries are announced (NOTIFY) and a finished one wakes the loop: idle, it naps
    // longer each round.
    await w.napper.nap(failing ? Math.max(pollMs, 2_000) : naps.after(found));
  }
}

/** Delivers one claimed row in a slot of its own; the slot frees (and wakes the loop) after. */
function dispatch(w: Worker, d: Claimed, log: (msg: string) => void) {
  w.inFlight++;
  const p = deliver(w, d)
    .catch((err) => log(`[webhooks] delivery ${d.id} could not be recorded: ${errorMessage(err)}`))
    .finally(() => {
      w.inFlight--;
      w.running.delete(p);
      w.napper.wake();
    });
  w.running.add(p);
}

async function deliver(w: Worker, d: Claimed) {
  // On PostgreSQL a delivery can be queued while the 410 that disables its endpoint is being
  // recorded: its enqueue did not see the endpoint yet, the 410's sweep did not see it either.
  // It is failed here, unsent: a receiver that answered 410 is never called again.
  if (d.disabled && !isNotification(d.kind)) return failUnsent(w.db, d.id, w.id);
  const startedAt = new Date();
  // E-mail and Slack notifications share the outbox: the same claims, retries and log.
  if (isNotification(d.kind)) {
    const result = await sendNotification({
      db: w.db,
      kind: d.kind,
      payload: d.payload,
      timeoutMs: w.timeoutMs,
    });
    return record(w, d, startedAt, result);
  }
  const body = JSON.stringify(d.payload);
  const result = await postWebhook({
    url: d.url,
    body,
    headers: {
      ...signatureHeaders({ secret: w.secret, id: d.id, body }),
      ...(isPushKind(d.kind) ? pushHeaders(d.auth_sealed) : authorizationOf(d.auth_sealed)),
    },
    timeoutMs: w.timeoutMs,
  });
  await record(w, d, startedAt, result);
}

async function record(w: Worker, d: Claimed, startedAt: Date, r: AttemptResult) {
  const { status, gone, delayMs, error } = attemptOutcome(d, r, w.schedule);
  observeDelivery(d.kind, status);
  if (gone) return recordGone(w.db, { d, workerId: w.id, startedAt, r, error });
  await w.recorder.record({
    id: d.id,
    attempt: d.attempts,
    startedAt,
    status,
    statusCode: r.statusCode,
    latencyMs: r.latencyMs,
    error,
    delaySeconds: (delayMs ?? 0) / 1000,
  });
  // The retry is this worker's own schedule: claim it when due, however long the idle nap.
  if (delayMs !== null) w.napper.wakeIn(delayMs);
}
