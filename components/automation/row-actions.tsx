"use client";

import { Pause, Play, Trash2 } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { toast } from "@/components/ui/toast";

/** Pause or resume a schedule or trigger, said in a toast; the list is refreshed either way. */
export function PauseButton({
  name,
  paused,
  update,
  refresh,
}: {
  name: string;
  paused: boolean;
  update: (paused: boolean) => Promise<unknown>;
  refresh: () => Promise<unknown>;
}) {
  return (
    <Button
      size="sm"
      variant="ghost"
      onClick={async () => {
        try {
          await update(!paused);
          toast.success(`“${name}” ${paused ? "resumed" : "paused"}.`);
        } catch (err) {
          toast.error(`Could not ${paused ? "resume" : "pause"} it: ${(err as Error).message}`);
        }
        await refresh();
      }}
    >
      {paused ? <Play aria-hidden /> : <Pause aria-hidden />}
      {paused ? "Resume" : "Pause"}
    </Button>
  );
}

/** Delete a schedule or trigger, after asking. */
export function DeleteButton({
  name,
  what,
  description,
  remove,
  refresh,
}: {
  name: string;
  what: "schedule" | "trigger" | "dataset";
  description: ReactNode;
  remove: () => Promise<unknown>;
  refresh: () => Promise<unknown>;
}) {
  return (
    <ConfirmDialog
      trigger={
        <Button size="icon" variant="ghost" aria-label={`Delete ${name}`}>
          <Trash2 aria-hidden />
        </Button>
      }
      title={`Delete “${name}”?`}
      description={description}
      confirmLabel={`Delete ${what}`}
      onConfirm={async () => {
        await remove();
        toast.success(`“${name}” deleted.`);
        await refresh();
      }}
    />
  );
}
