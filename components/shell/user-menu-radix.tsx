"use client";

import { BookOpen, LogOut, Settings } from "lucide-react";
import Link from "next/link";
import { useRef } from "react";
import { Badge } from "@/components/ui/badge";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";

import { type UserMenuProps, UserMenuTrigger } from "./user-menu-trigger";

/** The menu itself, loaded the first time somebody reaches for it (see user-menu.tsx). */
export default function UserMenuRadix({ user, signOut, compact }: UserMenuProps) {
  const signOutForm = useRef<HTMLFormElement>(null);
  return (
    <DropdownMenu defaultOpen>
      <DropdownMenuTrigger asChild>
        <UserMenuTrigger user={user} compact={compact} />
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
        {/* The menu stays open while the form posts: closing it first would unmount the form and
            cancel the submission. */}
        <DropdownMenuItem
          onSelect={(e) => {
            e.preventDefault();
            signOutForm.current?.requestSubmit();
          }}
        >
          <LogOut aria-hidden /> Sign out
        </DropdownMenuItem>
        <form ref={signOutForm} action={signOut} hidden />
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
