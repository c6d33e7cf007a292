import type { ComponentProps } from "react";
import { cn } from "./cn";

/** A placeholder block while data loads; hidden from assistive technology (say "Loading" nearby). */
export function Skeleton({ className, ...props }: ComponentProps<"div">) {
  return (
    <div
      aria-hidden
      className={cn("motion-safe:animate-pulse rounded-md bg-muted", className)}
      {...props}
    />
  );
}
