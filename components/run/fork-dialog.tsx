"use client";

import { GitFork } from "lucide-react";
import { useId } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Select, Textarea } from "@/components/ui/input";
import { forkButtonLabel, forkDescription, type Inherited } from "./fork-model";
import { useForkDialog } from "./use-fork-dialog";

/**
 * "Fork from here": a new run that starts at this task, the tasks before it taken from this run
 * (not run again), one of their outputs optionally edited first — the one just before, unless
 * another is chosen.
 */
export function ForkDialog({
  crew,
  runId,
  task,
  inherited,
}: {
  crew: string;
  runId: string;
  task: { task_id: string; name: string };
  inherited: Inherited[];
}) {
  const id = useId();
  const fork = useForkDialog(crew, runId, task.task_id, inherited);
  return (
    <Dialog open={fork.open} onOpenChange={fork.onOpenChange}>
      <Button size="sm" className="justify-self-start" onClick={() => fork.setOpen(true)}>
        <GitFork aria-hidden />
        Fork from here
      </Button>
      <DialogContent
        title={`Fork from “${task.name}”`}
        description={forkDescription(inherited)}
        className="sm:max-w-2xl"
      >
        <div className="grid gap-3">
          {inherited.length > 1 && (
            <Field id={`${id}-which`} label="Output to edit">
              <Select
                id={`${id}-which`}
                value={fork.which}
                onChange={(e) => fork.setWhich(e.target.value)}
              >
                {inherited.map((t) => (
                  <option key={t.task_id} value={t.task_id}>
                    {t.name}
                  </option>
                ))}
              </Select>
            </Field>
          )}
          {fork.chosen && (
            <ForkOutputField
              id={`${id}-output`}
              name={fork.chosen.name}
              text={fork.text}
              edited={fork.edited}
              onChange={fork.setText}
            />
          )}
          {fork.error && (
            <Alert tone="danger" title="The fork did not start">
              {fork.error}
            </Alert>
          )}
        </div>
        <DialogFooter>
          <DialogClose asChild>
            <Button type="button" variant="ghost">
              Cancel
            </Button>
          </DialogClose>
          <Button variant="primary" disabled={fork.sending} onClick={fork.start}>
            <GitFork aria-hidden />
            {forkButtonLabel(fork.sending, fork.edited)}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** The chosen output's text, saying whether the fork will start from an edit. */
function ForkOutputField({
  id,
  name,
  text,
  edited,
  onChange,
}: {
  id: string;
  name: string;
  text: string;
  edited: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <Field
      id={id}
      label={`Output of “${name}”`}
      help={
        edited
          ? "Edited: the fork starts from your text, and the ledger records it."
          : "As this run left it."
      }
    >
      <Textarea
        id={id}
        aria-describedby={`${id}-help`}
        rows={10}
        className="font-mono text-xs"
        value={text}
        onChange={(e) => onChange(e.target.value)}
      />
    </Field>
  );
}
