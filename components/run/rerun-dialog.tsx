"use client";

import { useQuery } from "@tanstack/react-query";
import { PencilLine } from "lucide-react";
import { useId, useState } from "react";
import { KickoffForm } from "@/components/crews/kickoff-form";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { ApiError, crewApi } from "@/lib/api/client";
import { type InputValue, interpolate } from "@/lib/util/placeholders";
import type { RunStatus } from "./run-types";

type Agent = { id: string; role: string; model: string };

/** The models given, trimmed; an empty field is as this run had it. */
export function chosenModels(models: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(models).flatMap(([k, v]) => (v.trim() ? [[k, v.trim()]] : [])),
  );
}

/** A refusal's problems with models, by agent ("*": every agent); inputs' are the form's own. */
export function modelRefusals(err: unknown): Record<string, string> {
  const byModel: Record<string, string> = {};
  if (err instanceof ApiError)
    for (const e of err.problem.errors ?? [])
      if (e.path.startsWith("models")) byModel[e.path.replace(/^models\.?/, "") || "*"] = e.message;
  return byModel;
}

/**
 * "Re-run with edits": the crew's form prefilled with this run's inputs, each one editable, and a
 * model per agent (or one for all), empty meaning as before. The new run links back to this one.
 */
export function RerunDialog({ crew, status }: { crew: string; status: RunStatus }) {
  const [open, setOpen] = useState(false);
  const [models, setModels] = useState<Record<string, string>>({});
  const [modelErrors, setModelErrors] = useState<Record<string, string>>({});
  const { data: definition, error } = useQuery({
    queryKey: ["crews", crew, "definition"],
    queryFn: () => crewApi(crew).definition(),
    enabled: open,
    staleTime: 60_000,
  });
  const inputValues = Object.fromEntries(
    Object.entries(status.inputs ?? {}).flatMap(([k, v]) => (v === null ? [] : [[k, v]])),
  );
  const chosen = chosenModels(models);

  async function start(inputs: Record<string, string | number | boolean>) {
    setModelErrors({});
    try {
      const body = Object.keys(chosen).length ? { inputs, models: chosen } : { inputs };
      return (await crewApi(crew).rerun(status.kickoff_id, body)).kickoff_id;
    } catch (err) {
      const byModel = modelRefusals(err);
      if (!Object.keys(byModel).length) throw err;
      setModelErrors(byModel);
      throw new Error("a model cannot be used (see its field).");
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) {
          setModels({});
          setModelErrors({});
        }
      }}
    >
      <Button size="sm" onClick={() => setOpen(true)}>
        <PencilLine aria-hidden />
        <span className="max-sm:sr-only">Re-run with edits</span>
      </Button>
      <DialogContent
        title="Re-run with edits"
        description="This run's inputs, to change as you like, and the models to run on. The new run links back to this one."
        className="sm:max-w-xl"
      >
        <KickoffForm
          crew={crew}
          prefill={status.inputs ?? {}}
          start={start}
          submitLabel="Start the re-run"
          extra={
            <ModelFields
              agents={(definition?.agents ?? []).map((a) => ({
                ...a,
                // Roles are written with the inputs in them ("{topic} researcher"): as this run read.
                role: roleAsRun(a.role, inputValues),
              }))}
              loadError={error?.message}
              value={models}
              errors={modelErrors}
              onChange={(next) => {
                setModels(next);
                setModelErrors({});
              }}
            />
          }
        />
      </DialogContent>
    </Dialog>
  );
}

/** One model for every agent, and one per agent (which wins); empty: as this run had it. */
function ModelFields({
  agents,
  loadError,
  value,
  errors,
  onChange,
}: {
  agents: Agent[];
  loadError?: string;
  value: Record<string, string>;
  errors: Record<string, string>;
  onChange: (value: Record<string, string>) => void;
}) {
  const base = useId();
  const known = [...new Set(["offline", ...agents.map((a) => a.model)])];
  // The format is said once, for all the fields; each placeholder says what empty keeps.
  const note = `${base}-note`;
  const field = (key: string, label: string, before: string) => {
    const id = `${base}-${key}`;
    const error = errors[key];
    return (
      <Field key={key} id={id} label={label} error={error}>
        <Input
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${note} ${id}-error` : note}
          list={`${base}-models`}
          value={value[key] ?? ""}
          placeholder={before}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => onChange({ ...value, [key]: e.target.value })}
        />
      </Field>
    );
  };
  return (
    <fieldset className="grid gap-3 rounded-lg border p-3">
      <legend className="px-1 font-medium text-sm">Models</legend>
      <p id={note} className="m-0 text-muted-foreground text-xs">
        Empty keeps the model the run had. A model is provider/model (e.g. openai/gpt-4o) or
        offline.
      </p>
      {loadError && (
        <p className="m-0 text-sm text-tone-danger-foreground">
          The agents could not be loaded ({loadError}): the models stay as they were.
        </p>
      )}
      <datalist id={`${base}-models`}>
        {known.map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
      {field("*", "Every agent", "as each agent had it")}
      {agents.map((a) => field(a.id, a.role, `as before, ${a.model}`))}
    </fieldset>
  );
}

/** The role with this run's inputs in; as written when that would be past its size budget. */
function roleAsRun(role: string, inputs: Record<string, InputValue>) {
  try {
    return interpolate(role, inputs);
  } catch {
    return role;
  }
}
