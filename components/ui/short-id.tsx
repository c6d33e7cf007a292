"use client";

import { useId } from "react";
import { shortId } from "@/lib/format/id";
import { cn } from "./cn";
import { CopyButton } from "./copy-button";
import { Hint, hintHost } from "./hint";

/** An id in monospace that never wraps: shortened on screen, whole on hover and when copied. */
export function ShortId({
  id,
  className,
  copy = true,
}: {
  id: string;
  className?: string;
  copy?: boolean;
}) {
  const hint = useId();
  return (
    <span className={cn("inline-flex items-center gap-0.5 whitespace-nowrap", className)}>
      <span className={hintHost}>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: focus reveals the whole id */}
        <code tabIndex={0} aria-describedby={hint} className="font-mono text-xs">
          {shortId(id)}
        </code>
        <Hint id={hint} className="font-mono">
          {id}
        </Hint>
      </span>
      {copy && <CopyButton text={id} what="id" />}
    </span>
  );
}
