"use client";

import { useQuery } from "@tanstack/react-query";
import { reviewsApi } from "@/lib/api/client";

export const INBOX_COUNT_KEY = ["runs", "inbox-count"] as const;

/**
 * How many reviews the person can act on now (not those they voted on, hold no right to decide,
 * or someone else has claimed), kept fresh while the tab is open; the inbox's live stream and
 * every review action refresh it at once.
 */
export function useInboxCount() {
  const { data } = useQuery({
    queryKey: INBOX_COUNT_KEY,
    queryFn: () => reviewsApi.list("mine", 0),
    refetchInterval: 5_000,
    select: (page) => page.counts.actionable,
  });
  return data;
}
