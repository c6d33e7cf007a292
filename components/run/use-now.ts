"use client";

import { useEffect, useState } from "react";

// The clock for what is still going on; starts at the server's render time so the server's HTML
// and the first client render agree.
export function useNow(live: boolean, start: number) {
  const [now, setNow] = useState(start);
  useEffect(() => {
    if (!live) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [live]);
  return now;
}
