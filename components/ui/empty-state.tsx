import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "./cn";

/** What a list says when it has nothing to show: why, and what to do about it. */
export function EmptyState({
  icon: Icon,
  title,
  children,
  action,
  className,
}: {
  icon?: LucideIcon;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  return (
    <div
      className={cn(
        "flex flex-col items-center gap-2 rounded-xl border border-dashed px-6 py-10 text-center",
        className,
      )}
    >
      {Icon && <Icon aria-hidden className="size-8 text-muted-foreground" />}
      <p className="font-medium text-base">{title}</p>
      {children && <div className="max-w-md text-muted-foreground text-sm">{children}</div>}
      {action && <div className="mt-2">{action}</div>}
    </div>
  );
}
