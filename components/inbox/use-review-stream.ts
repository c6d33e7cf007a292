"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { INBOX_COUNT_KEY } from "@/components/shell/inbox-count";

const STREAM_URL = "/api/reviews/stream";

/**
 * Keeps the inbox live: each `reviews` event from the server re-reads the queue and the nav's
 * count at once. Returns whether the stream is up; while it is not (refused at the stream cap, or
 * down) the caller polls as before.
 */
export function useReviewStream() {
  const queryClient = useQueryClient();
  const [live, setLive] = useState(false);
  useEffect(() => {
    const source = new EventSource(STREAM_URL);
    let failures = 0;
    const refresh = () => {
      void queryClient.invalidateQueries({ queryKey: ["runs", "inbox"] });
      void queryClient.invalidateQueries({ queryKey: INBOX_COUNT_KEY });
    };
    source.addEventListener("open", () => {
      failures = 0;
      setLive(true);
      refresh(); // whatever changed while it was connecting
    });
    source.addEventListener("reviews", refresh);
    source.addEventListener("error", () => {
      setLive(false);
      // A refused stream stays CLOSED (no retry storm); a dropped one is retried by the browser.
      if (++failures >= 3 || source.readyState === EventSource.CLOSED) source.close();
    });
    return () => source.close();
  }, [queryClient]);
  return live;
}
