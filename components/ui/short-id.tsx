"use client";

import { shortId } from "@/lib/format/id";
import { cn } from "./cn";
import { CopyButton } from "./copy-button";
import { Tooltip } from "./tooltip";

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
  return (
    <span className={cn("inline-flex items-center gap-0.5 whitespace-nowrap", className)}>
      <Tooltip content={<span className="font-mono">{id}</span>}>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: focus reveals the whole id */}
        <code tabIndex={0} className="font-mono text-xs">
          {shortId(id)}
        </code>
      </Tooltip>
      {copy && <CopyButton text={id} what="id" />}
    </span>
  );
}
