import Link from "next/link";
import { cn } from "@/components/ui/cn";
import { SCOPES, type Scope } from "./scopes";

/** Assigned to me / My team / All, each with its count once the list has loaded. */
export function InboxFilters({
  scope,
  counts,
  hrefOf,
}: {
  scope: Scope;
  counts: Record<Scope, number> | undefined;
  hrefOf: (scope: Scope) => string;
}) {
  return (
    <nav aria-label="Inbox filters" className="flex flex-wrap items-center gap-2">
      <div className="inline-flex max-w-full items-center gap-1 overflow-x-auto rounded-lg bg-muted p-1">
        {SCOPES.map((s) => (
          <Link
            key={s.id}
            href={hrefOf(s.id)}
            replace
            scroll={false}
            aria-current={s.id === scope ? "page" : undefined}
            className={cn(
              "inline-flex items-center gap-1.5 whitespace-nowrap rounded-md px-3 py-1.5 font-medium text-sm no-underline transition-colors",
              s.id === scope
                ? "bg-card text-foreground shadow-xs"
                : "text-muted-foreground hover:text-foreground",
            )}
          >
            {s.label}
            {counts && (
              <span className="rounded-full bg-background px-1.5 text-muted-foreground text-xs tabular-nums">
                {counts[s.id]}
              </span>
            )}
          </Link>
        ))}
      </div>
    </nav>
  );
}
