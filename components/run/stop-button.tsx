"use client";

import { Square } from "lucide-react";
import dynamic from "next/dynamic";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";

// The dialog (and Radix's focus trap) is fetched on the first click: most visits never stop.
const StopDialog = dynamic(() => import("./stop-dialog"), { ssr: false });

/** Stop, after a confirmation. */
export function StopButton({ onConfirm }: { onConfirm: () => Promise<void> }) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLButtonElement>(null);
  return (
    <>
      <Button ref={ref} size="sm" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <Square aria-hidden />
        Stop
      </Button>
      {open && <StopDialog onOpenChange={setOpen} onConfirm={onConfirm} returnFocus={ref} />}
    </>
  );
}
