"use client";

import { Cpu } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { Field, fieldAria } from "@/components/ui/field";
import { FormDialogFooter, useFormDialog } from "@/components/ui/form-dialog";
import { Input } from "@/components/ui/input";

/**
 * "Re-run on a model…": the selected runs started again, every agent on one model. The caller
 * starts them and answers why none started (said on the field, the dialog kept open), or null.
 */
export function RerunOnModel({
  count,
  disabled,
  onRun,
}: {
  count: number;
  disabled: boolean;
  onRun: (model: string) => Promise<string | null>;
}) {
  const id = useId();
  const dialog = useFormDialog();
  const { error } = dialog;
  const [model, setModel] = useState("");
  const help = "Every agent of each run, as provider/model (e.g. openai/gpt-4o) or offline.";
  return (
    <Dialog open={dialog.open} onOpenChange={dialog.onOpenChange}>
      <Button size="sm" disabled={disabled} onClick={() => dialog.setOpen(true)}>
        <Cpu aria-hidden />
        Re-run on a model…
      </Button>
      <DialogContent
        title={`Re-run ${count === 1 ? "1 run" : `${count} runs`} on another model`}
        description="Each starts again with its own inputs, linked to the run it came from."
      >
        <form
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            const problem = model.trim() ? null : "Name a model: provider/model, or offline.";
            void dialog.send(problem, () => onRun(model.trim()));
          }}
        >
          <Field id={id} label="Model" help={help} error={error}>
            <Input
              {...fieldAria(id, { help, error })}
              value={model}
              list={`${id}-models`}
              autoComplete="off"
              spellCheck={false}
              placeholder="e.g. openai/gpt-4o"
              onChange={(e) => {
                setModel(e.target.value);
                dialog.setError(undefined);
              }}
            />
          </Field>
          <datalist id={`${id}-models`}>
            <option value="offline" />
          </datalist>
          <FormDialogFooter
            sending={dialog.sending}
            label={`Re-run ${count}`}
            busyLabel="Starting…"
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
