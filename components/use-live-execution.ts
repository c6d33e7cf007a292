"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { crewApi } from "@/lib/api/client";
import type { ExecutionEvent, StatusResponse } from "@/lib/contract/status";

// Events after which /status has changed (a remote run's polled status change included).
const STATE_EVENTS = /^(execution_|task_|review_|remote_status)/;

const runStatusKey = (crew: string, id: string) => ["run-status", crew, id] as const;

/**
 * An execution's status (TanStack Query, so a revisit shows it at once) and event log, kept live:
 * Server-Sent Events from the log (the browser resumes from the last sequence after a reconnect),
 * falling back to polling every 2 s when the stream is unavailable. Events arriving together (a
 * replay of thousands on open) are applied once per animation frame, not one render each.
 */
export function useLiveExecution(
  crew: string,
  id: string,
  initialStatus?: StatusResponse,
  initialAt?: number,
) {
  const queryClient = useQueryClient();
  const statusQuery = useQuery({
    queryKey: runStatusKey(crew, id),
    queryFn: () => crewApi(crew).status(id),
    initialData: initialStatus,
    initialDataUpdatedAt: initialAt,
  });
  const [events, setEvents] = useState<ExecutionEvent[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [mode, setMode] = useState<"connecting" | "live" | "polling" | "ended">("connecting");
  const lastSeq = useRef(0);

  const refreshStatus = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: runStatusKey(crew, id) });
  }, [queryClient, crew, id]);

  useEffect(() => {
    lastSeq.current = 0;
    setEvents([]);
    let pending: ExecutionEvent[] = [];
    let frame = 0;
    let stale = false;
    let lastFlush = 0;
    const flush = () => {
      frame = 0;
      lastFlush = performance.now();
      const batch = pending;
      pending = [];
      if (batch.length) setEvents((prev) => prev.concat(batch));
      if (stale) {
        stale = false;
        refreshStatus();
      }
    };
    const add = (incoming: ExecutionEvent[]) => {
      for (const e of incoming) {
        if (e.seq <= lastSeq.current) continue;
        lastSeq.current = e.seq;
        pending.push(e);
        if (STATE_EVENTS.test(e.type)) stale = true;
      }
      if (frame || !pending.length) return;
      // A step after a quiet spell shows at once; a burst (the replay on open) is applied once
      // per frame. rAF does not run in a hidden tab; a timeout still delivers there.
      if (performance.now() - lastFlush > 100) {
        frame = -1;
        queueMicrotask(flush);
      } else
        frame = document.hidden
          ? (setTimeout(flush, 50) as unknown as number)
          : requestAnimationFrame(flush);
    };

    let poll: ReturnType<typeof setInterval> | undefined;
    let failures = 0;
    const source = new EventSource(crewApi(crew).streamUrl(id));
    source.addEventListener("open", () => {
      failures = 0;
      setMode("live");
    });
    source.addEventListener("execution", (e) => {
      add([JSON.parse((e as MessageEvent).data)]);
    });
    source.addEventListener("end", () => {
      source.close();
      setMode("ended");
      stale = true;
      add([]);
      refreshStatus();
    });
    source.addEventListener("error", () => {
      // A refused stream (429: this person has too many open, 503: the server has) is a non-200
      // answer, after which EventSource stays CLOSED: straight to polling, no retry storm.
      if (++failures < 3 && source.readyState !== EventSource.CLOSED) return; // the browser retries
      source.close();
      setMode("polling");
      poll ??= setInterval(async () => {
        try {
          const page = await crewApi(crew).events(id, lastSeq.current);
          add(page.events);
          refreshStatus();
          setError(null);
        } catch (err) {
          setError(err instanceof Error ? err.message : String(err));
        }
      }, 2000);
    });
    return () => {
      source.close();
      if (poll) clearInterval(poll);
      if (frame > 0) {
        cancelAnimationFrame(frame);
        clearTimeout(frame);
      }
    };
  }, [crew, id, refreshStatus]);

  return {
    status: statusQuery.data,
    statusError: statusQuery.error ? statusQuery.error.message : null,
    events,
    error,
    mode,
    refreshStatus,
  };
}
