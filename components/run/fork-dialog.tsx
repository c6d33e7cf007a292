"use client";

import { GitFork } from "lucide-react";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Select, Textarea } from "@/components/ui/input";
import { crewApi } from "@/lib/api/client";
import { errorMessage } from "@/lib/errors";

type Inherited = { task_id: string; name: string; output: string };

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
  const router = useRouter();
  const id = useId();
  const last = inherited.at(-1);
  const [open, setOpen] = useState(false);
  const [which, setWhich] = useState(last?.task_id ?? "");
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const chosen = inherited.find((t) => t.task_id === which);
  const text = chosen ? (texts[chosen.task_id] ?? chosen.output) : "";
  const edited = chosen && text !== chosen.output;

  async function start() {
    setSending(true);
    setError(null);
    try {
      const { kickoff_id } = await crewApi(crew).fork(runId, {
        from_task: task.task_id,
        ...(edited && chosen ? { edit: { task_id: chosen.task_id, output: text } } : {}),
      });
      router.push(`/crews/${encodeURIComponent(crew)}/runs/${kickoff_id}`);
    } catch (err) {
      setSending(false);
      setError(errorMessage(err));
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) {
          setWhich(last?.task_id ?? "");
          setTexts({});
          setError(null);
        }
      }}
    >
      <Button size="sm" className="justify-self-start" onClick={() => setOpen(true)}>
        <GitFork aria-hidden />
        Fork from here
      </Button>
      <DialogContent
        title={`Fork from “${task.name}”`}
        description={`A new run starts at this task. ${inherited.map((t) => `“${t.name}”`).join(", ")} ${inherited.length === 1 ? "is" : "are"} taken from this run as they are, not run again — edit one first if it should read differently.`}
        className="sm:max-w-2xl"
      >
        <div className="grid gap-3">
          {inherited.length > 1 && (
            <Field id={`${id}-which`} label="Output to edit">
              <Select id={`${id}-which`} value={which} onChange={(e) => setWhich(e.target.value)}>
                {inherited.map((t) => (
                  <option key={t.task_id} value={t.task_id}>
                    {t.name}
                  </option>
                ))}
              </Select>
            </Field>
          )}
          {chosen && (
            <Field
              id={`${id}-output`}
              label={`Output of “${chosen.name}”`}
              help={
                edited
                  ? "Edited: the fork starts from your text, and the ledger records it."
                  : "As this run left it."
              }
            >
              <Textarea
                id={`${id}-output`}
                aria-describedby={`${id}-output-help`}
                rows={10}
                className="font-mono text-xs"
                value={text}
                onChange={(e) => setTexts({ ...texts, [chosen.task_id]: e.target.value })}
              />
            </Field>
          )}
          {error && (
            <Alert tone="danger" title="The fork did not start">
              {error}
            </Alert>
          )}
        </div>
        <DialogFooter>
          <DialogClose asChild>
            <Button type="button" variant="ghost">
              Cancel
            </Button>
          </DialogClose>
          <Button variant="primary" disabled={sending} onClick={start}>
            <GitFork aria-hidden />
            {sending ? "Starting…" : edited ? "Start the fork with the edit" : "Start the fork"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
