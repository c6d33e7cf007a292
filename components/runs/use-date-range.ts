"use client";

import { useEffect, useState } from "react";
import type { useRunFilters } from "./use-run-filters";

/** Why a date range cannot be applied, or "" when it can. */
export function rangeProblem(from: string, to: string) {
  return from && to && from > to ? "“From” is after “To”: pick an earlier start." : "";
}

/** A date picker's bound: From may not pass To, nor To come before From. */
export function dateBounds(end: "from" | "to", { from, to }: { from: string; to: string }) {
  return end === "from" ? { max: to || undefined } : { min: from || undefined };
}

/**
 * The runs list's date range: applied only when it makes sense; a from after to is said, not
 * sent. A change of the URL from elsewhere replaces what is typed.
 */
export function useDateRange(filters: ReturnType<typeof useRunFilters>) {
  const urlFrom = filters.get("from");
  const urlTo = filters.get("to");
  const [from, setFrom] = useState(urlFrom);
  const [to, setTo] = useState(urlTo);
  useEffect(() => setFrom(urlFrom), [urlFrom]);
  useEffect(() => setTo(urlTo), [urlTo]);
  const change = (nextFrom: string, nextTo: string) => {
    setFrom(nextFrom);
    setTo(nextTo);
    if (rangeProblem(nextFrom, nextTo)) return;
    filters.set({ from: nextFrom, to: nextTo });
  };
  const set = (end: "from" | "to", value: string) =>
    end === "from" ? change(value, to) : change(from, value);
  const clear = () => {
    setFrom("");
    setTo("");
  };
  return { from, to, error: rangeProblem(from, to), set, clear };
}
