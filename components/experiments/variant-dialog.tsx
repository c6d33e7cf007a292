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
  const [agentId, setAgentId] = useState(agents[0]?.id ?? "");
  const [taskId, setTaskId] = useState(tasks.at(-1)?.id ?? "");
  const [agentEdits, setAgentEdits] = useState<Partial<Agent>>({});
  const [taskEdits, setTaskEdits] = useState<Partial<Task>>({});
  const [process, setProcess] = useState("");
  const [error, setError] = useState<string>();
  const queryClient = useQueryClient();
  const base = useId();

  async function save() {
    setError(undefined);
    const changes = variantChanges(
      { id: agentId, now: agents.find((a) => a.id === agentId), edits: agentEdits },
      { id: taskId, now: tasks.find((t) => t.id === taskId), edits: taskEdits },
      process,
    );
    const problem = variantProblem(name, changes);
    if (problem) return setError(problem);
    try {
      await experimentsApi(crew).createVariant({ name: name.trim(), changes });
      toast.success(`Variant “${name.trim()}” saved.`);
      void queryClient.invalidateQueries({ queryKey: ["crews", crew, "variants"] });
      setOpen(false);
      setName("");
      setAgentEdits({});
      setTaskEdits({});
      setProcess("");
    } catch (err) {
      setError(problemText(err));
    }
  }

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
            prefix="agent"
            items={agents}
            fields={AGENT_FIELDS}
            chosen={agentId}
            onChoose={(a) => {
              setAgentId(a);
              setAgentEdits({});
            }}
            edits={agentEdits}
            onEdit={setAgentEdits}
            oneLine={{ field: "llm", placeholder: "the default model" }}
            id={id}
          />
          <EditsFieldset
            legend="Task"
            prefix="task"
            items={tasks}
            fields={TASK_FIELDS}
            chosen={taskId}
            onChoose={(t) => {
              setTaskId(t);
              setTaskEdits({});
            }}
            edits={taskEdits}
            onEdit={setTaskEdits}
            id={id}
          />
          <ProcessField id={id("process")} value={process} onChange={setProcess} />
          {error && <Alert tone="danger">{error}</Alert>}
          <div className="flex justify-end">
            <Button variant="primary" onClick={save}>
              Save the variant
            </Button>
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}
