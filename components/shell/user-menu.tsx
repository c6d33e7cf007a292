"use client";

import { BookOpen, ChevronsUpDown, LogOut, Settings } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";

export type ShellUser = { name: string | null; email: string; role: string };

function initials(user: ShellUser) {
  const source = user.name?.trim() || user.email;
  const parts = source.split(/[\s@._-]+/).filter(Boolean);
  return ((parts[0]?.[0] ?? "") + (parts[1]?.[0] ?? "")).toUpperCase() || "?";
}

/** Who is signed in, with what role, and the way out. */
export function UserMenu({
  user,
  signOut,
  compact,
}: {
  user: ShellUser;
  signOut: () => Promise<void>;
  compact?: boolean;
}) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        className="flex w-full min-w-0 cursor-pointer items-center gap-2 rounded-md p-1.5 text-left hover:bg-muted"
        aria-label={`Account: ${user.name ?? user.email}`}
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
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-60">
        <DropdownMenuLabel className="grid gap-1">
          <span className="truncate font-medium">{user.name ?? user.email}</span>
          <span className="truncate text-muted-foreground text-xs">{user.email}</span>
          <Badge tone="outline" className="w-fit capitalize">
            {user.role}
          </Badge>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link href="/settings">
            <Settings aria-hidden /> Settings
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link href="/docs/api">
            <BookOpen aria-hidden /> API reference
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <form action={signOut}>
          <DropdownMenuItem asChild>
            <button type="submit" className="w-full">
              <LogOut aria-hidden /> Sign out
            </button>
          </DropdownMenuItem>
        </form>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
