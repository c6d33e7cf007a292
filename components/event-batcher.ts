import type { ExecutionEvent } from "@/lib/contract/status";

// Events after which /status has changed (a remote run's polled status change included).
const STATE_EVENTS = /^(execution_|task_|review_|remote_status)/;

/**
 * Applies a run's events in batches (use-live-execution.ts): each once, in sequence order, a
 * step after a quiet spell at once and a burst (the replay on open) once per animation frame.
 * `onStale` follows a batch with an event that changed the run's /status.
 */
export function eventBatcher(
  lastSeq: { current: number },
  onEvents: (batch: ExecutionEvent[]) => void,
  onStale: () => void,
) {
  let pending: ExecutionEvent[] = [];
  let scheduled = false;
  let frame = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stale = false;
  let lastFlush = 0;
  const flush = () => {
    scheduled = false;
    frame = 0;
    timer = undefined;
    lastFlush = performance.now();
    const batch = pending;
    pending = [];
    if (batch.length) onEvents(batch);
    if (stale) {
      stale = false;
      onStale();
    }
  };
  const add = (incoming: ExecutionEvent[]) => {
    for (const e of incoming) {
      if (e.seq <= lastSeq.current) continue;
      lastSeq.current = e.seq;
      pending.push(e);
      if (STATE_EVENTS.test(e.type)) stale = true;
    }
    if (scheduled || !pending.length) return;
    scheduled = true;
    // rAF does not run in a hidden tab; a timeout still delivers there.
    if (performance.now() - lastFlush > 100) queueMicrotask(flush);
    else if (document.hidden) timer = setTimeout(flush, 50);
    else frame = requestAnimationFrame(flush);
  };
  return {
    add,
    /** The run ended: /status is read again once what is pending is applied. */
    markStale: () => {
      stale = true;
    },
    cancel: () => {
      if (frame) cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}
