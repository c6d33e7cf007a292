"use client";

import { lazy, Suspense, useState } from "react";
import { MobileNavButton } from "./mobile-nav-button";

// The drawer (a Radix dialog: focus trap, scroll lock) loads on first use, like the user menu.
const loadDrawer = () => import("./mobile-nav-drawer");
const MobileNavDrawer = lazy(loadDrawer);

export function MobileNav() {
  const [wanted, setWanted] = useState(false);
  const button = (
    <MobileNavButton
      aria-haspopup="dialog"
      aria-expanded={false}
      onPointerEnter={() => void loadDrawer()}
      onFocus={() => void loadDrawer()}
      onClick={() => setWanted(true)}
    />
  );
  if (!wanted) return button;
  return (
    <Suspense fallback={button}>
      <MobileNavDrawer />
    </Suspense>
  );
}
