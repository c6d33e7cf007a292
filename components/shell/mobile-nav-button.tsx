"use client";

import { Menu } from "lucide-react";
import type { ComponentProps } from "react";
import { Button } from "@/components/ui/button";

// The menu button: shown at once, and inside the drawer once it has loaded (mobile-nav.tsx).
export function MobileNavButton(props: ComponentProps<typeof Button>) {
  return (
    <Button variant="ghost" size="icon" aria-label="Open navigation" {...props}>
      <Menu aria-hidden />
    </Button>
  );
}
