"use client";

import { ChevronsUpDown } from "lucide-react";
import type { ComponentProps } from "react";

// The account button: shown at once, and inside the menu once it has loaded (user-menu.tsx).
export type ShellUser = { name: string | null; email: string; role: string };
export type UserMenuProps = { user: ShellUser; signOut: () => Promise<void>; compact?: boolean };

function initials(user: ShellUser) {
  const source = user.name?.trim() || user.email;
  const parts = source.split(/[\s@._-]+/).filter(Boolean);
  return ((parts[0]?.[0] ?? "") + (parts[1]?.[0] ?? "")).toUpperCase() || "?";
}

export function UserMenuTrigger({
  user,
  compact,
  ...props
}: { user: ShellUser; compact?: boolean } & ComponentProps<"button">) {
  return (
    <button
      type="button"
      aria-label={`Account: ${user.name ?? user.email}`}
      aria-haspopup="menu"
      className="flex w-full min-w-0 cursor-pointer items-center gap-2 rounded-md border-0 bg-transparent p-1.5 text-left text-foreground hover:bg-muted"
      {...props}
    >
      <span
        aria-hidden
        className="flex size-7 shrink-0 items-center justify-center rounded-full bg-accent font-semibold text-accent-foreground text-xs"
      >
        {initials(user)}
      </span>
      {!compact && (
        <>
          <span className="grid min-w-0 flex-1 leading-tight">
            <span className="truncate font-medium text-sm">{user.name ?? user.email}</span>
            <span className="truncate text-muted-foreground text-xs capitalize">{user.role}</span>
          </span>
          <ChevronsUpDown aria-hidden className="size-4 text-muted-foreground" />
        </>
      )}
    </button>
  );
}
