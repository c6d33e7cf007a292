"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { atCursor, withFilters, withMeta, withoutMeta } from "./filter-url";

// The runs list's filters live in the URL: a filtered list can be shared, reloaded and returned to
// with the back button. These are the keys it reads; anything else in the query is left alone.
const FILTER_KEYS = [
  "crew",
  "deployment",
  "status",
  "started_by",
  "from",
  "to",
  "q",
  "meta",
] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

/** The URL's filters, normalised (sorted keys, no empty values): the query a saved view stores. */
function filterQuery(params: URLSearchParams): string {
  const out = new URLSearchParams();
  for (const key of FILTER_KEYS)
    for (const value of params.getAll(key)) if (value) out.append(key, value);
  return out.toString();
}

/** The GET /api/runs query for the URL's filters and page. */
export function apiQuery(params: URLSearchParams, perPage = 25): string {
  const out = new URLSearchParams(filterQuery(params));
  const cursor = params.get("cursor");
  if (cursor) out.set("cursor", cursor);
  out.set("per_page", String(perPage));
  return out.toString();
}

export function useRunFilters() {
  const pathname = usePathname();
  const params = useSearchParams();
  const query = useMemo(() => filterQuery(new URLSearchParams(params.toString())), [params]);

  // The history entry is replaced in place (Next keeps useSearchParams in step): the URL changes
  // at once and the page's server part is not fetched again for a filter, so quick changes in a
  // row (Clear, then a date) cannot land out of order.
  const replace = useCallback(
    (next: URLSearchParams) => {
      const qs = next.toString();
      window.history.replaceState(null, "", qs ? `${pathname}?${qs}` : pathname);
    },
    [pathname],
  );

  /** Sets (or clears, with "") one filter; any change goes back to the first page. */
  const set = useCallback(
    (changes: Partial<Record<FilterKey, string>>) =>
      replace(withFilters(window.location.search, changes)),
    [replace],
  );
  const addMeta = useCallback(
    (tag: string) => replace(withMeta(window.location.search, tag)),
    [replace],
  );
  const removeMeta = useCallback(
    (tag: string) => replace(withoutMeta(window.location.search, tag)),
    [replace],
  );
  const page = useCallback(
    (cursor: string) => replace(atCursor(window.location.search, cursor)),
    [replace],
  );

  /** Applies a saved view's query (or "" to clear every filter). */
  const apply = useCallback((q: string) => replace(new URLSearchParams(q)), [replace]);

  return {
    params,
    query,
    get: (key: FilterKey) => params.get(key) ?? "",
    meta: params.getAll("meta"),
    filtered: query !== "",
    set,
    addMeta,
    removeMeta,
    page,
    apply,
  };
}
