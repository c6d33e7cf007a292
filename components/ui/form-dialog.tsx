"use client";

import { useState } from "react";
import { Button } from "./button";
import { DialogClose, DialogFooter } from "./dialog";

/**
 * A dialog whose form sends one thing: whether it is open, the error said on its field (cleared
 * on opening), and `send`, which says a local problem, or sends and closes unless told why not.
 */
export function useFormDialog(onOpen?: () => void) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  const onOpenChange = (o: boolean) => {
    setOpen(o);
    if (o) {
      onOpen?.();
      setError(undefined);
    }
  };
  const send = async (problem: string | null, run: () => Promise<string | null>) => {
    if (problem) {
      setError(problem);
      return;
    }
    setSending(true);
    const why = await run();
    setSending(false);
    if (why) setError(why);
    else setOpen(false);
  };
  return { open, setOpen, onOpenChange, error, setError, sending, send };
}

/** Cancel, and the form's submit saying what it is doing while it sends. */
export function FormDialogFooter({
  sending,
  label,
  busyLabel,
}: {
  sending: boolean;
  label: string;
  busyLabel: string;
}) {
  return (
    <DialogFooter>
      <DialogClose asChild>
        <Button type="button" variant="ghost">
          Cancel
        </Button>
      </DialogClose>
      <Button type="submit" variant="primary" disabled={sending}>
        {sending ? busyLabel : label}
      </Button>
    </DialogFooter>
  );
}
