import type { ReactNode } from "react";
import { cn } from "./cn";

/**
 * A small text bubble over its trigger on hover and keyboard focus, in CSS alone: exact times and
 * full ids appear all over every page, and a positioned tooltip library for each would weigh on
 * every page's load. The trigger must be focusable and point at `id` with aria-describedby.
 */
export function Hint({
  id,
  children,
  className,
}: {
  id: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <span
      role="tooltip"
      id={id}
      className={cn(
        "pointer-events-none absolute bottom-full left-0 z-50 mb-1 hidden w-max max-w-[min(20rem,80vw)] rounded-md bg-foreground px-2 py-1 font-normal font-sans text-background text-xs shadow-md group-focus-within/hint:block group-hover/hint:block",
        className,
      )}
    >
      {children}
    </span>
  );
}

/** The wrapper that shows its Hint on hover or focus inside it. */
export const hintHost = "group/hint relative inline-flex";
