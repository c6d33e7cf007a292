import type { ReactNode } from "react";

/** A key as printed on the keyboard. */
export function Kbd({ children }: { children: ReactNode }) {
  return (
    <kbd className="inline-flex h-5 min-w-5 items-center justify-center rounded border bg-muted px-1 font-medium font-mono text-[11px] text-foreground">
      {children}
    </kbd>
  );
}

/** True when a key press belongs to a form field, not to the page's shortcuts. */
export function isTyping(e: KeyboardEvent): boolean {
  const t = e.target;
  return (
    t instanceof HTMLInputElement ||
    t instanceof HTMLTextAreaElement ||
    t instanceof HTMLSelectElement ||
    (t instanceof HTMLElement && t.isContentEditable)
  );
}
