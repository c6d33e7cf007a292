"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { crewApi } from "@/lib/api/client";
import type { ExecutionEvent, StatusResponse } from "@/lib/contract/status";
import { eventBatcher } from "./event-batcher";

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
  const [mode, setMode] = useState<StreamMode>("connecting");
  const lastSeq = useRef(0);

  const refreshStatus = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: runStatusKey(crew, id) });
  }, [queryClient, crew, id]);

  useEffect(() => {
    lastSeq.current = 0;
    setEvents([]);
    const batcher = eventBatcher(
      lastSeq,
      (batch) => setEvents((prev) => prev.concat(batch)),
      refreshStatus,
    );
    const stop = followEvents(crew, id, {
      add: batcher.add,
      lastSeq,
      onMode: setMode,
      onError: setError,
      onEnd: () => {
        batcher.markStale();
        batcher.add([]);
        refreshStatus();
      },
      refreshStatus,
    });
    return () => {
      stop();
      batcher.cancel();
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

type StreamMode = "connecting" | "live" | "polling" | "ended";

/**
 * Follows a run's event log: Server-Sent Events, resumed by the browser after a reconnect, or
 * polling every 2 s once the stream fails. Answers how to stop following.
 */
function followEvents(
  crew: string,
  id: string,
  on: {
    add: (events: ExecutionEvent[]) => void;
    lastSeq: { current: number };
    onMode: (mode: StreamMode) => void;
    onError: (error: string | null) => void;
    onEnd: () => void;
    refreshStatus: () => void;
  },
) {
  let poll: ReturnType<typeof setInterval> | undefined;
  let failures = 0;
  const source = new EventSource(crewApi(crew).streamUrl(id));
  source.addEventListener("open", () => {
    failures = 0;
    on.onMode("live");
  });
  source.addEventListener("execution", (e) => {
    if (e instanceof MessageEvent) on.add([JSON.parse(e.data)]);
  });
  source.addEventListener("end", () => {
    source.close();
    on.onMode("ended");
    on.onEnd();
  });
  source.addEventListener("error", () => {
    // A refused stream (429: this person has too many open, 503: the server has) is a non-200
    // answer, after which EventSource stays CLOSED: straight to polling, no retry storm.
    if (++failures < 3 && source.readyState !== EventSource.CLOSED) return; // the browser retries
    source.close();
    on.onMode("polling");
    poll ??= setInterval(async () => {
      try {
        const page = await crewApi(crew).events(id, on.lastSeq.current);
        on.add(page.events);
        on.refreshStatus();
        on.onError(null);
      } catch (err) {
        on.onError(err instanceof Error ? err.message : String(err));
      }
    }, 2000);
  });
  return () => {
    source.close();
    if (poll) clearInterval(poll);
  };
}
