"use client";

import { useEffect, useId, useState } from "react";
import { formatExact, formatRelative } from "@/lib/format/time";
import { cn } from "./cn";
import { Hint, hintHost } from "./hint";

/** "5 min ago", kept current; the exact time on hover and focus, and in the <time> element. */
export function RelativeTime({ iso, className }: { iso: string; className?: string }) {
  const id = useId();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(t);
  }, []);
  return (
    <span className={cn(hintHost, "whitespace-nowrap", className)}>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: focus shows the exact time to keyboard users */}
      <time dateTime={iso} tabIndex={0} aria-describedby={id} suppressHydrationWarning>
        {formatRelative(iso, now)}
      </time>
      <Hint id={id}>
        <span suppressHydrationWarning>{formatExact(iso)}</span>
      </Hint>
    </span>
  );
}
