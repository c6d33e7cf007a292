import { z } from "zod";
import type { Db } from "@/lib/db/types";
import { EXECUTION_CHANNEL } from "@/lib/runs/execution-cache";

// Tells the open inboxes of this process when the open reviews changed anywhere. Every write to a
// run notifies `crewdeck_exec` with its id; ids arriving together are read once, and subscribers
// are told only when a run's open reviews (or its wait for human input) differ from what was last
// seen. A busy run's steps cost one small read per batch here, not a refetch by every inbox.

const BATCH_MS = 100;

type Watch = {
  subscribers: Set<() => void>;
  /**
   * What each run with open reviews looks like: a digest of its status and reviews. Read whole
   * when the first inbox subscribes (and after a lost connection), so a review that opened while
   * no one watched is known when it goes.
   */
  seen: Map<string, string>;
  baseline?: Promise<void>;
  pending: Set<string>;
  timer?: ReturnType<typeof setTimeout>;
  started?: Promise<void>;
};
declare global {
  var __crewdeckReviewWatch: Watch | undefined;
}
globalThis.__crewdeckReviewWatch ??= {
  subscribers: new Set(),
  seen: new Map(),
  pending: new Set(),
};
const watch: Watch = globalThis.__crewdeckReviewWatch;

const tellAll = () => {
  for (const tell of watch.subscribers) tell();
};

const Digest = z.object({ id: z.string(), digest: z.string().nullable() });
const DIGEST = `CASE WHEN status = 'pending_human_input' OR jsonb_array_length(open_reviews) > 0
                     THEN md5(status || open_reviews::text) END`;

function readBaseline(db: Db): Promise<void> {
  watch.baseline ??= db
    .query(
      `SELECT id::text AS id, ${DIGEST} AS digest FROM executions
        WHERE status = 'pending_human_input' OR jsonb_array_length(open_reviews) > 0`,
      [],
      Digest,
    )
    .then(({ rows }) => {
      watch.seen = new Map(rows.flatMap((r) => (r.digest ? [[r.id, r.digest] as const] : [])));
    })
    .finally(() => {
      watch.baseline = undefined;
    });
  return watch.baseline;
}

/** Reads the batch's runs once; a run whose reviews look as before tells nobody. */
async function check(db: Db) {
  watch.timer = undefined;
  await watch.baseline;
  const ids = [...watch.pending];
  watch.pending.clear();
  if (!ids.length || !watch.subscribers.size) return;
  const { rows } = await db.query(
    `SELECT id::text AS id, ${DIGEST} AS digest FROM executions WHERE id = ANY($1::uuid[])`,
    [ids],
    Digest,
  );
  const now = new Map(rows.map((r) => [r.id, r.digest]));
  let changed = false;
  for (const id of ids) {
    const digest = now.get(id) ?? null; // a deleted run has none
    if ((watch.seen.get(id) ?? null) === digest) continue;
    changed = true;
    if (digest === null) watch.seen.delete(id);
    else watch.seen.set(id, digest);
  }
  if (changed) tellAll();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function onChanged(db: Db, id: string) {
  if (!watch.subscribers.size || !UUID.test(id)) return;
  watch.pending.add(id);
  watch.timer ??= setTimeout(() => {
    // A failed read may have missed a change: everyone re-reads rather than miss it.
    check(db).catch(tellAll);
  }, BATCH_MS);
}

/**
 * Calls `onChange` (with nothing: the caller re-reads what it may see) whenever an open review
 * appears, changes (a claim, a vote, a reassignment) or goes; returns the unsubscribe.
 */
export async function watchOpenReviews(db: Db, onChange: () => void): Promise<() => void> {
  watch.started ??= db
    .listen(
      EXECUTION_CHANNEL,
      (id) => onChanged(db, id),
      (listening) => {
        // Back from a lost connection: changes may have been missed; start again from what is.
        if (listening && watch.subscribers.size) readBaseline(db).then(tellAll, tellAll);
      },
    )
    .catch((err) => {
      watch.started = undefined; // the next inbox tries again
      throw err;
    });
  await watch.started;
  if (!watch.subscribers.size) await readBaseline(db);
  watch.subscribers.add(onChange);
  return () => {
    watch.subscribers.delete(onChange);
  };
}
