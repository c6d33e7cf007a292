"use client";

import { Toaster as Sonner } from "sonner";

export { toast } from "sonner";

/** Where toasts appear: bottom right, in the page's theme, read out politely by screen readers. */
export function Toaster() {
  return (
    <Sonner
      position="bottom-right"
      theme="system"
      closeButton
      toastOptions={{
        classNames: {
          toast: "bg-card! text-card-foreground! border-border!",
          description: "text-muted-foreground!",
          actionButton: "bg-primary! text-primary-foreground!",
        },
      }}
    />
  );
}
