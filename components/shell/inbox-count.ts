"use client";

import { useQuery } from "@tanstack/react-query";
import { runsApi } from "@/lib/api/client";

const INBOX_COUNT_KEY = ["runs", "inbox-count"] as const;

/** How many runs await review, kept fresh while the tab is open; reviews invalidate it at once. */
export function useInboxCount() {
  const { data } = useQuery({
    queryKey: INBOX_COUNT_KEY,
    queryFn: () => runsApi.list({ status: "pending_human_input", per_page: "1" }),
    refetchInterval: 5_000,
    select: (page) => page.total,
  });
  return data;
}
