"use client";

import { useQueryClient } from "@tanstack/react-query";
import { GitBranch } from "lucide-react";
import { useId, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { Field, fieldAria } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toast";
import { experimentsApi } from "@/lib/api/client";
import type { VariantChanges } from "@/lib/contract/datasets";
import { problemText } from "./problem-text";
import { variantChanges, variantProblem } from "./variant-changes";
import { EditsFieldset, ProcessField } from "./variant-fields";

type Agent = { id: string; role: string; goal: string; backstory: string; llm: string };
type Task = { id: string; description: string; expected_output: string };
export type CrewShape = { agents: Agent[]; tasks: Task[] };

const AGENT_FIELDS = ["llm", "role", "goal", "backstory"] as const;
const TASK_FIELDS = ["description", "expected_output"] as const;

/** "New variant": one agent's model or prompts, one task's text, or the process — as data. */
export function VariantDialog({ crew, agents, tasks }: CrewShape & { crew: string }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const agent = useChoice<Agent>(agents[0]?.id ?? "");
  const task = useChoice<Task>(tasks.at(-1)?.id ?? "");
  const [process, setProcess] = useState("");
  const base = useId();
  const saving = useSaveVariant(crew, () => {
    setOpen(false);
    setName("");
    agent.setEdits({});
    task.setEdits({});
    setProcess("");
  });
  const changes = () =>
    variantChanges(
      { id: agent.id, now: agents.find((a) => a.id === agent.id), edits: agent.edits },
      { id: task.id, now: tasks.find((t) => t.id === task.id), edits: task.edits },
      process,
    );
  const id = (f: string) => `${base}-${f}`;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button size="sm" variant="secondary" onClick={() => setOpen(true)}>
        <GitBranch aria-hidden />
        New variant
      </Button>
      <DialogContent
        title="New variant"
        description="Change a model, an agent's prompts, a task's text or the process. The crew's files stay as they are."
        className="sm:max-w-2xl"
      >
        <div className="grid gap-4">
          <Field id={id("name")} label="Name" required>
            <Input
              {...fieldAria(id("name"), {})}
              value={name}
              placeholder="e.g. terse writer"
              onChange={(e) => setName(e.target.value)}
            />
          </Field>
          <EditsFieldset
            legend="Agent"
            items={agents}
            fields={AGENT_FIELDS}
            choice={agent}
            oneLine={{ field: "llm", placeholder: "the default model" }}
            id={id}
          />
          <EditsFieldset legend="Task" items={tasks} fields={TASK_FIELDS} choice={task} id={id} />
          <ProcessField id={id("process")} value={process} onChange={setProcess} />
          {saving.error && <Alert tone="danger">{saving.error}</Alert>}
          <div className="flex justify-end">
            <Button variant="primary" onClick={() => saving.save(name, changes())}>
              Save the variant
            </Button>
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}

/** Saves a variant once it has a name and a change; a refusal stays in the dialog as `error`. */
function useSaveVariant(crew: string, onSaved: () => void) {
  const [error, setError] = useState<string>();
  const queryClient = useQueryClient();
  async function save(name: string, changes: VariantChanges) {
    setError(undefined);
    const problem = variantProblem(name, changes);
    if (problem) return setError(problem);
    try {
      await experimentsApi(crew).createVariant({ name: name.trim(), changes });
      toast.success(`Variant “${name.trim()}” saved.`);
      void queryClient.invalidateQueries({ queryKey: ["crews", crew, "variants"] });
      onSaved();
    } catch (err) {
      setError(problemText(err));
    }
  }
  return { error, save };
}

/** The agent (or task) being changed and its edits; choosing another starts its edits afresh. */
function useChoice<T>(first: string) {
  const [id, setId] = useState(first);
  const [edits, setEdits] = useState<Partial<T>>({});
  const choose = (next: string) => {
    setId(next);
    setEdits({});
  };
  return { id, edits, choose, setEdits };
}
