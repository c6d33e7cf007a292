"use client";

import { useEffect, useState } from "react";

/**
 * Whether a media query matches, followed as the window changes. False on the server and the
 * first render (the server's HTML and the first client render agree), then the truth.
 */
export function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(false);
  useEffect(() => {
    const list = window.matchMedia(query);
    const update = () => setMatches(list.matches);
    update();
    list.addEventListener("change", update);
    return () => list.removeEventListener("change", update);
  }, [query]);
  return matches;
}
