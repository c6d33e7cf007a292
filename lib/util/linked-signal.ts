/**
 * A signal that aborts, with the same reason, as soon as any of `signals` does — what
 * `AbortSignal.any` makes — and `unlink`, which stops it following them once its work is over.
 *
 * `AbortSignal.any` lets nobody unlink: it keeps every signal it makes reachable from its sources
 * through weak references and a finalization registry. On a worker running hundreds of tasks a
 * second that bookkeeping, and the garbage it leaves, cost more than some of the task's own code.
 * Work with a clear end (a task, an agent's loop, a tool call) links and unlinks instead.
 */
export function linkedSignal(...signals: AbortSignal[]): {
  signal: AbortSignal;
  unlink: () => void;
} {
  const controller = new AbortController();
  const already = signals.find((s) => s.aborted);
  if (already) {
    controller.abort(already.reason);
    return { signal: controller.signal, unlink: () => {} };
  }
  const unhooks = signals.map((source) => {
    const follow = () => {
      unlink();
      controller.abort(source.reason);
    };
    source.addEventListener("abort", follow, { once: true });
    return () => source.removeEventListener("abort", follow);
  });
  const unlink = () => {
    for (const unhook of unhooks) unhook();
  };
  return { signal: controller.signal, unlink };
}
