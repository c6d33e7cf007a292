"use client";

import { type RefObject, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "@/components/ui/dialog";

/** The confirmation before a stop; loaded on the first click of Stop (Radix's dialog with it). */
export default function StopDialog({
  onOpenChange,
  onConfirm,
  returnFocus,
}: {
  onOpenChange: (open: boolean) => void;
  onConfirm: () => Promise<void>;
  returnFocus: RefObject<HTMLButtonElement | null>;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent
        title="Stop this run?"
        description="The current task is cut short and nothing after it runs. The steps so far are kept."
        onCloseAutoFocus={(e) => {
          e.preventDefault();
          returnFocus.current?.focus();
        }}
      >
        <DialogFooter>
          <DialogClose asChild>
            <Button>Cancel</Button>
          </DialogClose>
          <Button
            variant="destructive"
            disabled={busy}
            onClick={async () => {
              setBusy(true);
              try {
                await onConfirm();
                onOpenChange(false);
              } finally {
                setBusy(false);
              }
            }}
          >
            Stop run
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
