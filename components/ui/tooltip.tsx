"use client";

import { Tooltip as T } from "radix-ui";
import type { ReactNode } from "react";

/** A rich hint on hover and keyboard focus (for plain text, `Hint` costs no JavaScript). The trigger must be focusable (a button, a link, <time tabIndex>). */
export function Tooltip({
  content,
  children,
  side = "top",
}: {
  content: ReactNode;
  children: ReactNode;
  side?: "top" | "bottom" | "left" | "right";
}) {
  // Each tooltip brings its own provider, so pages without one never load Radix's tooltip.
  return (
    <T.Provider delayDuration={300}>
      <T.Root>
        <T.Trigger asChild>{children}</T.Trigger>
        <T.Portal>
          <T.Content
            side={side}
            sideOffset={4}
            className="z-50 max-w-xs rounded-md bg-foreground px-2 py-1 text-background text-xs shadow-md"
          >
            {content}
          </T.Content>
        </T.Portal>
      </T.Root>
    </T.Provider>
  );
}
