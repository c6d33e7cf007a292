"use client";

import { Dialog as D } from "radix-ui";
import { useState } from "react";
import { Brand } from "./brand";
import { MobileNavButton } from "./mobile-nav-button";
import { NavLinks } from "./nav-links";

/** Phones: the sections in a drawer from the left, closed again by choosing one. */
export default function MobileNavDrawer() {
  const [open, setOpen] = useState(true);
  return (
    <D.Root open={open} onOpenChange={setOpen}>
      <D.Trigger asChild>
        <MobileNavButton />
      </D.Trigger>
      <D.Portal>
        <D.Overlay className="fixed inset-0 z-50 bg-black/50" />
        <D.Content className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col gap-4 border-r bg-card p-4 shadow-lg">
          <D.Title className="sr-only">Navigation</D.Title>
          <D.Description className="sr-only">The dashboard's sections</D.Description>
          <Brand />
          <nav aria-label="Main">
            <NavLinks onNavigate={() => setOpen(false)} />
          </nav>
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}
