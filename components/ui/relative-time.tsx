"use client";

import { useEffect, useState } from "react";
import { formatExact, formatRelative } from "@/lib/format/time";
import { Tooltip } from "./tooltip";

/** "5 min ago", kept current; the exact time on hover and focus, and in the <time> element. */
export function RelativeTime({ iso, className }: { iso: string; className?: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(t);
  }, []);
  return (
    <Tooltip content={formatExact(iso)}>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: focus shows the exact time to keyboard users */}
      <time dateTime={iso} tabIndex={0} className={className} suppressHydrationWarning>
        {formatRelative(iso, now)}
      </time>
    </Tooltip>
  );
}
