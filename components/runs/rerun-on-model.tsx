"use client";

import { Cpu } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "@/components/ui/dialog";
import { Field, fieldAria } from "@/components/ui/field";
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
  const [open, setOpen] = useState(false);
  const [model, setModel] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  const help = "Every agent of each run, as provider/model (e.g. openai/gpt-4o) or offline.";
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) setError(undefined);
      }}
    >
      <Button size="sm" disabled={disabled} onClick={() => setOpen(true)}>
        <Cpu aria-hidden />
        Re-run on a model…
      </Button>
      <DialogContent
        title={`Re-run ${count === 1 ? "1 run" : `${count} runs`} on another model`}
        description="Each starts again with its own inputs, linked to the run it came from."
      >
        <form
          className="grid gap-4"
          onSubmit={async (e) => {
            e.preventDefault();
            if (!model.trim()) {
              setError("Name a model: provider/model, or offline.");
              return;
            }
            setSending(true);
            const why = await onRun(model.trim());
            setSending(false);
            if (why) setError(why);
            else setOpen(false);
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
                setError(undefined);
              }}
            />
          </Field>
          <datalist id={`${id}-models`}>
            <option value="offline" />
          </datalist>
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="ghost">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" variant="primary" disabled={sending}>
              {sending ? "Starting…" : `Re-run ${count}`}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
