import { Menu } from "lucide-react";
import type { ComponentProps } from "react";
import { Button } from "@/components/ui/button";

/** The menu button of the phone layout: the same before and after the drawer has loaded. */
export function MobileNavButton(props: ComponentProps<typeof Button>) {
  return (
    <Button variant="ghost" size="icon" aria-label="Open navigation" {...props}>
      <Menu aria-hidden />
    </Button>
  );
}
