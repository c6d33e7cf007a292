import { EventEmitter } from "node:events";
import type { ExecutionEvent } from "@/lib/contract/status";
import type { Db } from "@/lib/db/types";
import { EXECUTION_CHANNEL } from "@/lib/runs/execution-cache";
import { listEvents } from "@/lib/runs/list-events";

// Live fan-out for timelines: one LISTEN per process on the channel every state change
// notifies (from whichever process wrote it), passed on to the subscribers of that execution.
declare global {
  var __crewdeckLive: { emitter: EventEmitter; started?: Promise<void> } | undefined;
}
const slot = globalThis;
slot.__crewdeckLive ??= { emitter: new EventEmitter().setMaxListeners(0) };
const live = slot.__crewdeckLive;

async function subscribeToExecution(db: Db, id: string, onChange: () => void): Promise<() => void> {
  live.started ??= db
    .listen(
      EXECUTION_CHANNEL,
      (changed) => live.emitter.emit(changed),
      (listening) => {
        // Back from a lost connection: changes may have been missed, so everyone re-reads.
        if (listening) for (const name of live.emitter.eventNames()) live.emitter.emit(name);
      },
    )
    .catch((err) => {
      live.started = undefined; // a failed LISTEN is not kept: the next follower tries again
      throw err;
    });
  await live.started;
  live.emitter.on(id, onChange);
  return () => live.emitter.off(id, onChange);
}

type Follower = {
  last: number;
  onEvents: (events: ExecutionEvent[]) => void;
  onError: () => void;
};
type Feed = {
  followers: Set<Follower>;
  running: boolean;
  again: boolean;
  subscribed: Promise<() => void>;
};
declare global {
  var __crewdeckFeeds: Map<string, Feed> | undefined;
}
globalThis.__crewdeckFeeds ??= new Map<string, Feed>();
const feeds: Map<string, Feed> = globalThis.__crewdeckFeeds;

/** Reads what is new for the furthest-behind follower once, and hands each its part, in order. */
function pump(db: Db, id: string, feed: Feed) {
  if (feed.running) {
    feed.again = true;
    return;
  }
  feed.running = true;
  feed.again = false;
  (async () => {
    if (!feed.followers.size) return;
    let from = Math.min(...[...feed.followers].map((f) => f.last));
    for (;;) {
      const page = await listEvents({ q: db, id, after: from, limit: 500 });
      for (const f of feed.followers) {
        const mine = page.events.filter((e) => e.seq > f.last);
        const newest = mine.at(-1);
        if (!newest) continue;
        f.last = newest.seq;
        f.onEvents(mine);
      }
      from = page.last_seq;
      if (!page.has_more) break;
    }
  })()
    .catch(() => {
      for (const f of feed.followers) f.onError();
    })
    .finally(() => {
      feed.running = false;
      if (feed.again) pump(db, id, feed);
    });
}

/**
 * Follows an execution's event log from `after`: `onEvents` gets every later event once, in
 * order, as it is written. However many follow one execution in this process (a timeline open
 * in 200 browsers), each change costs one read of the log, not one per follower.
 */
export async function followExecution(
  db: Db,
  id: string,
  after: number,
  onEvents: Follower["onEvents"],
  onError: Follower["onError"],
): Promise<() => void> {
  let feed = feeds.get(id);
  if (!feed) {
    const created: Feed = {
      followers: new Set(),
      running: false,
      again: false,
      subscribed: subscribeToExecution(db, id, () => pump(db, id, created)),
    };
    feed = created;
    feeds.set(id, feed);
    // A feed whose LISTEN failed must not be reused: the next follower starts a fresh one.
    created.subscribed.catch(() => {
      if (feeds.get(id) === created) feeds.delete(id);
    });
  }
  const current: Feed = feed;
  const follower: Follower = { last: after, onEvents, onError };
  current.followers.add(follower);
  await current.subscribed;
  pump(db, id, current);
  return () => {
    current.followers.delete(follower);
    if (current.followers.size || feeds.get(id) !== current) return;
    feeds.delete(id);
    current.subscribed.then((unsubscribe: () => void) => unsubscribe()).catch(() => {});
  };
}
