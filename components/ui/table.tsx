import type { ComponentProps } from "react";
import { cn } from "./cn";

/**
 * A data table that scrolls sideways inside its card instead of widening the page. A table with
 * nothing focusable in it needs `scrollLabel`: the scrolling box then takes the keyboard focus (and
 * that name), so its hidden columns stay reachable without a mouse.
 */
export function Table({
  className,
  scrollLabel,
  ...props
}: ComponentProps<"table"> & { scrollLabel?: string }) {
  return (
    <div
      className={cn(
        "relative w-full overflow-x-auto",
        scrollLabel &&
          "focus-visible:outline-2 focus-visible:outline-ring focus-visible:-outline-offset-2",
      )}
      {...(scrollLabel ? { role: "region", "aria-label": scrollLabel, tabIndex: 0 } : {})}
    >
      <table
        className={cn("w-full caption-bottom border-collapse text-sm", className)}
        {...props}
      />
    </div>
  );
}

export function TableHeader({ className, ...props }: ComponentProps<"thead">) {
  return <thead className={cn("[&_tr]:border-b", className)} {...props} />;
}

export function TableBody({ className, ...props }: ComponentProps<"tbody">) {
  return <tbody className={cn("[&_tr:last-child]:border-0", className)} {...props} />;
}

export function TableRow({ className, ...props }: ComponentProps<"tr">) {
  return <tr className={cn("border-b transition-colors", className)} {...props} />;
}

export function TableHead({ className, ...props }: ComponentProps<"th">) {
  return (
    <th
      className={cn(
        "h-9 whitespace-nowrap px-3 text-left align-middle font-medium text-muted-foreground text-xs",
        className,
      )}
      {...props}
    />
  );
}

export function TableCell({ className, ...props }: ComponentProps<"td">) {
  return <td className={cn("px-3 py-2.5 align-middle", className)} {...props} />;
}
