"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { crewApi } from "@/lib/api/client";
import type { ExecutionEvent, StatusResponse } from "@/lib/api/schemas";

// Events after which /status has changed (a remote run's polled status change included).
const STATE_EVENTS = /^(execution_|task_|review_|remote_status)/;

/**
 * An execution's status and event log, kept live: Server-Sent Events from the log (the browser
 * resumes from the last sequence after a reconnect), falling back to polling every 2 s when the
 * stream is unavailable.
 */
export function useLiveExecution(crew: string, id: string) {
  const api = crewApi(crew);
  const [status, setStatus] = useState<StatusResponse | null>(null);
  const [events, setEvents] = useState<ExecutionEvent[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [mode, setMode] = useState<"connecting" | "live" | "polling" | "ended">("connecting");
  const lastSeq = useRef(0);

  const refreshStatus = useCallback(() => {
    crewApi(crew)
      .status(id)
      .then((s) => {
        setStatus(s);
        setError(null);
      })
      .catch((err) => setError(err instanceof Error ? err.message : String(err)));
  }, [crew, id]);

  const add = useCallback((incoming: ExecutionEvent[]) => {
    const fresh = incoming.filter((e) => e.seq > lastSeq.current);
    if (!fresh.length) return false;
    lastSeq.current = fresh.at(-1)?.seq ?? lastSeq.current;
    setEvents((prev) => [...prev, ...fresh]);
    return fresh.some((e) => STATE_EVENTS.test(e.type));
  }, []);

  useEffect(() => {
    refreshStatus();
    let poll: ReturnType<typeof setInterval> | undefined;
    let failures = 0;
    const source = new EventSource(crewApi(crew).streamUrl(id));
    source.addEventListener("open", () => {
      failures = 0;
      setMode("live");
    });
    source.addEventListener("execution", (e) => {
      if (add([JSON.parse((e as MessageEvent).data)])) refreshStatus();
    });
    source.addEventListener("end", () => {
      source.close();
      setMode("ended");
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
        } catch (err) {
          setError(err instanceof Error ? err.message : String(err));
        }
      }, 2000);
    });
    return () => {
      source.close();
      if (poll) clearInterval(poll);
    };
  }, [crew, id, add, refreshStatus]);

  return { status, events, error, mode, refreshStatus, api };
}
