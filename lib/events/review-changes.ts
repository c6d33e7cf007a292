import { z } from "zod";
import { canSeeExecution, type Principal } from "@/lib/auth/principal";
import type { Db } from "@/lib/db/types";
import { EXECUTION_CHANNEL } from "@/lib/runs/execution-cache";

// Tells the open inboxes of this process when the open reviews changed anywhere. Every write to a
// run notifies `crewdeck_exec` with its id; ids arriving together are read once, and subscribers
// are told only when a run's open reviews (or its wait for human input) differ from what was last
// seen. A busy run's steps cost one small read per batch here, not a refetch by every inbox.
// Each inbox hears only of runs its caller may see (as GET /api/reviews shows them): a user
// token learns neither what changed in another person's reviews nor when.

const BATCH_MS = 100;

type Subscriber = { principal: Principal; tell: () => void };
/** A run as the watch last saw it: whose it is, and a digest of its status and open reviews. */
type Seen = { owner: string | null; digest: string };
type Watch = {
  subscribers: Set<Subscriber>;
  /**
   * Each run with open reviews. Read whole when the first inbox subscribes (and after a lost
   * connection), so a review that opened while no one watched is known when it goes.
   */
  seen: Map<string, Seen>;
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

/** Tells the inboxes whose callers may see a run of one of `owners` (null: every inbox). */
function tell(owners: ReadonlySet<string | null> | null) {
  for (const s of watch.subscribers)
    if (!owners || [...owners].some((owner) => canSeeExecution(s.principal, owner))) s.tell();
}
const tellAll = () => tell(null);
// Those that see every run (canSeeExecution): what a failed read may have missed is theirs.
const tellSeeingAll = () => {
  for (const s of watch.subscribers) if (s.principal.kind !== "user") s.tell();
};

const Digest = z.object({
  id: z.string(),
  owner: z.string().nullable(),
  digest: z.string().nullable(),
});
const COLUMNS = "id::text AS id, owner_user_id::text AS owner";
const DIGEST = `CASE WHEN status = 'pending_human_input' OR jsonb_array_length(open_reviews) > 0
                     THEN md5(status || open_reviews::text) END`;

function readBaseline(db: Db): Promise<void> {
  watch.baseline ??= db
    .query(
      `SELECT ${COLUMNS}, ${DIGEST} AS digest FROM executions
        WHERE status = 'pending_human_input' OR jsonb_array_length(open_reviews) > 0`,
      [],
      Digest,
    )
    .then(({ rows }) => {
      watch.seen = new Map(
        rows.flatMap(({ id, owner, digest }) => (digest ? [[id, { owner, digest }] as const] : [])),
      );
    })
    .finally(() => {
      watch.baseline = undefined;
    });
  return watch.baseline;
}

/**
 * Reads the batch's runs once and tells the inboxes that may see a run whose reviews changed.
 * If the read fails, the runs are read again with the next batch.
 */
async function check(db: Db, ids: string[]) {
  await watch.baseline;
  if (!ids.length || !watch.subscribers.size) return;
  const { rows } = await db.query(
    `SELECT ${COLUMNS}, ${DIGEST} AS digest FROM executions WHERE id = ANY($1::uuid[])`,
    [ids],
    Digest,
  );
  const now = new Map(rows.map((r) => [r.id, r]));
  const owners = new Set<string | null>();
  for (const id of ids) {
    const row = now.get(id); // a deleted run has none
    const before = watch.seen.get(id);
    const digest = row?.digest ?? null;
    if ((before?.digest ?? null) === digest) continue;
    owners.add(row?.owner ?? before?.owner ?? null);
    if (digest === null) watch.seen.delete(id);
    else watch.seen.set(id, { owner: row?.owner ?? null, digest });
  }
  if (owners.size) tell(owners);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function onChanged(db: Db, id: string) {
  if (!watch.subscribers.size || !UUID.test(id)) return;
  watch.pending.add(id);
  watch.timer ??= setTimeout(() => {
    watch.timer = undefined;
    const ids = [...watch.pending];
    watch.pending.clear();
    check(db, ids).catch(() => {
      // Whose runs changed is unknown: those who see every run re-read now; the others' runs
      // are read again with the next batch (or the baseline after a lost connection), so no
      // inbox hears when someone else's review changed.
      for (const id of ids) watch.pending.add(id);
      tellSeeingAll();
    });
  }, BATCH_MS);
}

/**
 * Calls `onChange` (with nothing: the caller re-reads what it may see) whenever an open review
 * `principal` may see appears, changes (a claim, a vote, a reassignment) or goes; and, after a
 * lost connection, once, whatever changed. Returns the unsubscribe.
 */
export async function watchOpenReviews(
  db: Db,
  principal: Principal,
  onChange: () => void,
): Promise<() => void> {
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
  const subscriber: Subscriber = { principal, tell: onChange };
  watch.subscribers.add(subscriber);
  return () => {
    watch.subscribers.delete(subscriber);
  };
}
