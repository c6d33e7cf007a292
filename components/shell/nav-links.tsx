"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";
import { useInboxCount } from "./inbox-count";
import { isCurrent, NAV_ITEMS } from "./nav-items";

/** The sections, the current one marked for eyes (tint) and screen readers (aria-current). */
export function NavLinks({ onNavigate }: { onNavigate?: () => void }) {
  const pathname = usePathname();
  const inbox = useInboxCount();
  return (
    <ul className="grid gap-0.5">
      {NAV_ITEMS.map(({ href, label, icon: Icon }) => {
        const current = isCurrent(href, pathname);
        return (
          <li key={href}>
            <Link
              href={href}
              onClick={onNavigate}
              aria-current={current ? "page" : undefined}
              className={cn(
                "flex items-center gap-2.5 rounded-md px-2.5 py-1.5 font-medium text-muted-foreground text-sm transition-colors hover:bg-muted hover:text-foreground",
                current &&
                  "bg-accent text-accent-foreground hover:bg-accent hover:text-accent-foreground",
              )}
            >
              <Icon aria-hidden className="size-4" />
              <span className="flex-1">{label}</span>
              {href === "/inbox" && inbox ? (
                <span className="min-w-5 rounded-full bg-primary px-1.5 text-center font-semibold text-primary-foreground text-xs leading-5">
                  {inbox > 99 ? "99+" : inbox}
                  <span className="sr-only"> awaiting review</span>
                </span>
              ) : null}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
