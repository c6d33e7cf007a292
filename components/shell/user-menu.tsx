"use client";

import { lazy, Suspense, useState } from "react";
import { type UserMenuProps, UserMenuTrigger } from "./user-menu-trigger";

// The menu (Radix, with its positioning and focus handling) is fetched when the pointer or focus
// reaches the button and mounted open on the first press: every page loads faster without it.
const loadMenu = () => import("./user-menu-radix");
const UserMenuRadix = lazy(loadMenu);

/** Who is signed in, with what role, and the way out. */
export function UserMenu(props: UserMenuProps) {
  const [wanted, setWanted] = useState(false);
  const trigger = (
    <UserMenuTrigger
      user={props.user}
      compact={props.compact}
      aria-expanded={false}
      onPointerEnter={() => void loadMenu()}
      onFocus={() => void loadMenu()}
      onClick={() => setWanted(true)}
    />
  );
  if (!wanted) return trigger;
  return (
    <Suspense fallback={trigger}>
      <UserMenuRadix {...props} />
    </Suspense>
  );
}
