import { errorCode } from "@/lib/errors";
import { isConnectionError } from "./connection-errors";
import type { Db, Queryable } from "./types";

/**
 * One write that holds on its own, to be sent with others: its CTEs (named from `tag`, with
 * parameters made by `p`), the expressions that must be evaluated for them all to run (a CTE
 * that only SELECTs, such as a pg_notify, runs only if read), whether it applied, and the
 * notifications it sends once it has (a NOTIFY in the statement on PostgreSQL, told to this
 * process's listeners on the embedded database: Db.notifyHere).
 */
export type Piece = (
  p: (value: unknown) => string,
  tag: string,
) => { ctes: string[]; reads: string[]; applied: string; notify?: Notification[] };

export type Notification = { channel: string; payload: string };

type Item = {
  piece: Piece;
  notify?: Notification[];
  resolve: (applied: boolean) => void;
  reject: (err: unknown) => void;
};
type Queue = { waiting: Item[]; inFlight: number; scheduled: boolean };

// How statements are cut. On PostgreSQL, several of at most 16 pieces under way at once: the
// database runs them on its own cores side by side, and this process works on the first answer
// back while the others are under way, instead of one big statement of every run at a time, with
// the database idle while the runs go on and the runs idle while it writes (in process, 2,000 runs
// at concurrency 32, medians of 3: 305 → 416 executions/s). A run is never in two at once: it writes its next
// change only after its last is stored. The embedded database runs on this thread, so a second
// statement would only wait behind the first: one at a time, as large as may be.
const CUT = {
  postgres: { inFlight: 3, pieces: 16 },
  embedded: { inFlight: 1, pieces: 32 },
} as const;

// Far below PostgreSQL's 65,535 parameters per statement; and once past MAX_CHARS of text (runs
// writing large files), a statement takes no more pieces.
const MAX_PARAMS = 20_000;
const MAX_CHARS = 4_000_000;

const queues = new WeakMap<Db, Queue>();

/**
 * Writes `piece` in one statement with the other pieces written in this turn of the event loop,
 * and those that come while statements are under way (CUT) wait and go together: a busy
 * worker sends one round trip for many runs' changes instead of one each (on the embedded
 * database, which runs on this thread, the end of the turn is the only chance to gather them).
 * Resolves with whether the piece applied. A statement the database refused (it rolled back as a
 * whole) is tried again piece by piece, so one piece's error is its own; a lost connection is
 * everyone's, since nobody can tell whether it committed.
 */
export function commitTogether(db: Db, piece: Piece): Promise<boolean> {
  let queue = queues.get(db);
  if (!queue) {
    queue = { waiting: [], inFlight: 0, scheduled: false };
    queues.set(db, queue);
  }
  const q = queue;
  return new Promise<boolean>((resolve, reject) => {
    q.waiting.push({ piece, resolve, reject });
    // A statement under way at the limit takes what waits when it ends.
    if (q.scheduled || q.inFlight >= cutOf(db).inFlight) return;
    q.scheduled = true;
    setImmediate(() => {
      q.scheduled = false;
      pump(db, q);
    });
  });
}

/**
 * Writes `piece` alone, in the caller's transaction (for a write that must commit with others, or
 * after a check under a lock). On the embedded database its notifications are returned, for the
 * caller to tell its listeners once the transaction has committed.
 */
export async function writePiece(q: Queryable, db: Db, piece: Piece): Promise<Notification[]> {
  let failed: unknown;
  const item: Item = { piece, resolve: () => {}, reject: (err) => (failed = err) };
  const { sql, params, items } = statementOf([item], !!db.notifyHere);
  if (!items.length) throw failed;
  const { rows } = await q.query(sql, params);
  if (rows[0]?.a0 !== true) throw new Error("the write did not apply");
  return item.notify ?? [];
}

/** Tells this process's listeners what a transaction that has committed notified. */
export function notifyCommitted(db: Db, notifications: Notification[]) {
  for (const n of notifications) db.notifyHere?.(n.channel, n.payload);
}

const cutOf = (db: Db) => CUT[db.kind] ?? CUT.embedded;

function pump(db: Db, q: Queue) {
  const { inFlight, pieces } = cutOf(db);
  while (q.waiting.length && q.inFlight < inFlight) {
    const { sql, params, items, taken } = statementOf(q.waiting, !!db.notifyHere, pieces);
    q.waiting = q.waiting.slice(taken);
    if (!items.length) continue;
    q.inFlight++;
    void send(db, sql, params, items).finally(() => {
      q.inFlight--;
      pump(db, q);
    });
  }
}

async function send(db: Db, sql: string, params: unknown[], items: Item[]) {
  try {
    const { rows } = await db.query(sql, params);
    const applied = items.map((_, i) => rows[0]?.[`a${i}`] === true);
    // Listeners first, as a NOTIFY's would be: a cached row is forgotten before its writer goes on.
    if (db.notifyHere) {
      for (const [i, item] of items.entries())
        if (applied[i]) for (const n of item.notify ?? []) db.notifyHere(n.channel, n.payload);
    }
    for (const [i, item] of items.entries()) item.resolve(applied[i] === true);
  } catch (err) {
    if (items.length === 1 || !refusedByDatabase(err)) {
      for (const item of items) item.reject(err);
      return;
    }
    for (const item of items) {
      const one = statementOf([item], !!db.notifyHere);
      if (one.items.length) await send(db, one.sql, one.params, one.items);
    }
  }
}

/**
 * As many of `waiting` as fit in one statement, from the first; `notifyHere`: their notifications
 * are told in this process after it, not sent as NOTIFYs in it.
 */
function statementOf(
  waiting: Item[],
  notifyHere: boolean,
  maxPieces: number = CUT.embedded.pieces,
) {
  const params: unknown[] = [];
  let chars = 0;
  const p = (value: unknown) => {
    if (typeof value === "string") chars += value.length;
    return `$${params.push(value)}`;
  };
  const ctes: string[] = [];
  const reads: string[] = [];
  const items: Item[] = [];
  let taken = 0;
  for (const item of waiting) {
    const full = items.length >= maxPieces || params.length >= MAX_PARAMS || chars >= MAX_CHARS;
    if (items.length && full) break;
    taken++;
    const i = items.length;
    const before = params.length;
    let made: ReturnType<Piece>;
    try {
      made = item.piece(p, tag(i));
    } catch (err) {
      params.length = before; // its parameters go with it
      item.reject(err);
      continue;
    }
    ctes.push(...made.ctes);
    reads.push(`${made.applied} AS a${i}`, ...made.reads.map((r, k) => `${r} AS r${i}_${k}`));
    const notify = made.notify ?? [];
    if (notifyHere) item.notify = notify;
    else
      notify.forEach((n, k) => {
        ctes.push(
          `${tag(i)}notify${k} AS (SELECT pg_notify(${p(n.channel)}, ${p(n.payload)}) WHERE ${made.applied})`,
        );
        reads.push(`(SELECT count(*) FROM ${tag(i)}notify${k}) AS n${i}_${k}`);
      });
    items.push(item);
  }
  const sql = `WITH ${ctes.join(",\n")}\nSELECT ${reads.join(", ")}`;
  return { sql, params, items, taken };
}

const tag = (i: number) => `w${i}_`;

/**
 * An error the database answered with (an SQLSTATE), so the statement did not commit — not a
 * connection lost or refused (whose codes include five-letter errnos such as EPIPE).
 */
function refusedByDatabase(err: unknown) {
  const code = errorCode(err);
  return code !== undefined && /^[0-9A-Z]{5}$/.test(code) && !isConnectionError(err);
}
