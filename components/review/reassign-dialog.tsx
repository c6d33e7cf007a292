"use client";

import { UserRoundPen } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { FormDialogFooter, useFormDialog } from "@/components/ui/form-dialog";
import { AssigneePicker } from "./assignee-picker";

/** "Reassign": who may decide the review from now on; the claim, if any, ends. */
export function ReassignDialog({
  current,
  disabled,
  onSubmit,
}: {
  current: string[];
  disabled: boolean;
  /** Null when it went through, else why not (said on the field). */
  onSubmit: (assignees: string[]) => Promise<string | null>;
}) {
  const id = useId();
  const [value, setValue] = useState(current);
  const dialog = useFormDialog(() => setValue(current));
  const { error } = dialog;
  const help = "Whoever you choose may decide; the claim, if any, ends.";
  return (
    <Dialog open={dialog.open} onOpenChange={dialog.onOpenChange}>
      <Button size="sm" variant="ghost" disabled={disabled} onClick={() => dialog.setOpen(true)}>
        <UserRoundPen aria-hidden />
        Reassign
      </Button>
      <DialogContent title="Reassign this review" description={help}>
        <form
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            const problem = value.length ? null : "Choose at least one person, role or team.";
            void dialog.send(problem, () => onSubmit(value));
          }}
        >
          <div className="grid gap-1.5">
            <span id={`${id}-label`} className="font-medium text-sm">
              Assign to
            </span>
            <AssigneePicker
              value={value}
              onChange={(v) => {
                setValue(v);
                dialog.setError(undefined);
              }}
              labelledBy={`${id}-label`}
              describedBy={error ? `${id}-error` : undefined}
              invalid={!!error}
            />
            {error && (
              <p
                id={`${id}-error`}
                role="alert"
                className="m-0 text-sm text-tone-danger-foreground"
              >
                {error}
              </p>
            )}
          </div>
          <FormDialogFooter sending={dialog.sending} label="Reassign" busyLabel="Reassigning…" />
        </form>
      </DialogContent>
    </Dialog>
  );
}
