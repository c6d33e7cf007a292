"use client";

import { useQueryClient } from "@tanstack/react-query";
import { GitBranch } from "lucide-react";
import { useId, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { Field, fieldAria } from "@/components/ui/field";
import { Input, Select, Textarea } from "@/components/ui/input";
import { toast } from "@/components/ui/toast";
import { ApiError, experimentsApi } from "@/lib/api/client";
import type { VariantChanges } from "@/lib/contract/datasets";

type Agent = { id: string; role: string; goal: string; backstory: string; llm: string };
type Task = { id: string; description: string; expected_output: string };
export type CrewShape = { agents: Agent[]; tasks: Task[] };

const AGENT_FIELDS = ["llm", "role", "goal", "backstory"] as const;
const TASK_FIELDS = ["description", "expected_output"] as const;
const LABEL: Record<string, string> = {
  llm: "Model",
  role: "Role",
  goal: "Goal",
  backstory: "Backstory",
  description: "Description",
  expected_output: "Expected output",
};

/** Only what differs from the crew: a field left as it was is no change. */
function changed<T extends Record<string, string>>(now: T, edited: Partial<T>) {
  return Object.fromEntries(
    Object.entries(edited).filter(
      ([k, v]) => v !== undefined && v.trim() !== (now[k] ?? "").trim(),
    ),
  );
}

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
  const agent = agents.find((a) => a.id === agentId);
  const task = tasks.find((t) => t.id === taskId);

  async function save() {
    setError(undefined);
    const changes: VariantChanges = {};
    const a = agent ? changed(agent, agentEdits) : {};
    const t = task ? changed(task, taskEdits) : {};
    if (Object.keys(a).length) changes.agents = { [agentId]: a };
    if (Object.keys(t).length) changes.tasks = { [taskId]: t };
    if (process) changes.process = process as "sequential" | "hierarchical";
    if (!name.trim()) return setError("Name the variant.");
    if (!Object.keys(changes).length)
      return setError("Change at least one thing: a model, a prompt, a task or the process.");
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
      const list = err instanceof ApiError ? err.problem.errors : undefined;
      setError(
        list?.length
          ? list.map((e) => `${e.path}: ${e.message}`).join("; ")
          : String((err as Error).message),
      );
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
          <fieldset className="grid gap-3 rounded-md border p-3">
            <legend className="px-1 font-medium text-sm">Agent</legend>
            <Select
              aria-label="Agent"
              value={agentId}
              onChange={(e) => {
                setAgentId(e.target.value);
                setAgentEdits({});
              }}
            >
              {agents.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.id}
                </option>
              ))}
            </Select>
            {agent &&
              AGENT_FIELDS.map((f) => (
                <Field key={f} id={id(`agent-${f}`)} label={LABEL[f]}>
                  {f === "llm" ? (
                    <Input
                      {...fieldAria(id(`agent-${f}`), {})}
                      className="font-mono"
                      value={agentEdits[f] ?? agent[f]}
                      placeholder="the default model"
                      onChange={(e) => setAgentEdits({ ...agentEdits, [f]: e.target.value })}
                    />
                  ) : (
                    <Textarea
                      {...fieldAria(id(`agent-${f}`), {})}
                      className="min-h-14"
                      value={agentEdits[f] ?? agent[f]}
                      onChange={(e) => setAgentEdits({ ...agentEdits, [f]: e.target.value })}
                    />
                  )}
                </Field>
              ))}
          </fieldset>
          <fieldset className="grid gap-3 rounded-md border p-3">
            <legend className="px-1 font-medium text-sm">Task</legend>
            <Select
              aria-label="Task"
              value={taskId}
              onChange={(e) => {
                setTaskId(e.target.value);
                setTaskEdits({});
              }}
            >
              {tasks.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.id}
                </option>
              ))}
            </Select>
            {task &&
              TASK_FIELDS.map((f) => (
                <Field key={f} id={id(`task-${f}`)} label={LABEL[f]}>
                  <Textarea
                    {...fieldAria(id(`task-${f}`), {})}
                    className="min-h-14"
                    value={taskEdits[f] ?? task[f]}
                    onChange={(e) => setTaskEdits({ ...taskEdits, [f]: e.target.value })}
                  />
                </Field>
              ))}
          </fieldset>
          <Field id={id("process")} label="Process">
            <Select id={id("process")} value={process} onChange={(e) => setProcess(e.target.value)}>
              <option value="">As the crew has it</option>
              <option value="sequential">Sequential: each task by its own agent</option>
              <option value="hierarchical">Hierarchical: a manager hands out the tasks</option>
            </Select>
          </Field>
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
