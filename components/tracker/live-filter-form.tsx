"use client";

import { usePathname, useRouter } from "next/navigation";
import { type FormEvent, type ReactNode, useRef, useTransition } from "react";
import { cn } from "@/components/ui/cn";
import { useHydrated } from "@/components/ui/use-hydrated";

const TYPING_PAUSE_MS = 300;

/**
 * A GET filter form that applies as you type (after a short pause; a select or date at once), as
 * the runs list does: the URL changes in place, so a filtered view can be shared and reloaded.
 * Before the page's script runs it is a plain form with its submit button; after, that button
 * (marked `data-submit`) is hidden.
 */
export function LiveFilterForm({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  const router = useRouter();
  const pathname = usePathname();
  const hydrated = useHydrated();
  const [pending, startTransition] = useTransition();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const apply = (form: HTMLFormElement) => {
    clearTimeout(timer.current);
    const q = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (typeof v === "string" && v.trim()) q.set(k, v);
    const query = q.toString();
    startTransition(() =>
      router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false }),
    );
  };
  const typed = (e: FormEvent<HTMLFormElement>) => {
    const form = e.currentTarget;
    const field = e.target as HTMLElement;
    clearTimeout(timer.current);
    // Text waits for a pause in typing; a choice (select, date) is applied at once.
    if (field instanceof HTMLInputElement && field.type !== "date")
      timer.current = setTimeout(() => apply(form), TYPING_PAUSE_MS);
    else apply(form);
  };

  return (
    <form
      method="get"
      aria-label={label}
      aria-busy={pending || undefined}
      data-live={hydrated || undefined}
      className={cn("group", className)}
      onInput={typed}
      onSubmit={(e) => {
        e.preventDefault();
        apply(e.currentTarget);
      }}
    >
      {children}
    </form>
  );
}
