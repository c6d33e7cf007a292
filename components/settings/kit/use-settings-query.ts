"use client";

import { keepPreviousData, type QueryKey, useQuery, useQueryClient } from "@tanstack/react-query";

/**
 * What a Settings section shows, fetched once and shared by key, with the two ways a change
 * lands: `refresh()` fetches again every query under the key's first part (all the pages of a
 * paged list), `replace(view)` puts the answer of a save in place of the list. A paged list
 * keeps the page on screen (`keepPrevious`) while the next one loads.
 */
export function useSettingsQuery<T>(
  queryKey: QueryKey,
  queryFn: () => Promise<T>,
  { refetchInterval, keepPrevious }: { refetchInterval?: number; keepPrevious?: boolean } = {},
) {
  const qc = useQueryClient();
  const query = useQuery({
    queryKey,
    queryFn,
    refetchInterval,
    placeholderData: keepPrevious ? keepPreviousData : undefined,
  });
  return {
    query,
    refresh: () => qc.invalidateQueries({ queryKey: queryKey.slice(0, 1) }),
    replace: (view: T) => qc.setQueryData(queryKey, view),
  };
}
