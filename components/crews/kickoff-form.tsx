"use client";

import { useQuery } from "@tanstack/react-query";
import { Play } from "lucide-react";
import { type FormEvent, type ReactNode, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { ApiError, crewApi, inputsApi } from "@/lib/api/client";
import type { InputSchema } from "@/lib/crew/input-schema";
import { type FormValue, KickoffField } from "./kickoff-fields";
import { fromNames, initialValues, type KickoffInputs } from "./kickoff-values";
import { useKickoff } from "./use-kickoff";

async function loadSchema(crew: string): Promise<InputSchema> {
  try {
    return (await inputsApi.get(crew)).input_schema;
  } catch (err) {
    // Only an answer without input_schema falls back; a refusal or an outage is said as such.
    if (!(err instanceof ApiError && err.problem.type.endsWith(":unexpected_response"))) throw err;
    return fromNames((await crewApi(crew).inputs()).inputs);
  }
}

type KickoffFormProps = {
  crew: string;
  /** Why a run of this crew cannot succeed now (a model's key missing): Start is disabled. */
  blocked?: string[];
  /** Values to start from (a re-run's origin inputs) instead of the defaults. */
  prefill?: Record<string, unknown>;
  /** Starts the run and answers its id (a re-run); a kickoff when not given. */
  start?: (inputs: KickoffInputs) => Promise<string>;
  submitLabel?: string;
  /** Fields above the inputs (a schedule's timing). */
  lead?: ReactNode;
  /** More fields, above the button (a re-run's models). */
  extra?: ReactNode;
  /** What to do with what `start` answered; the new run's page when not given. */
  onStarted?: (id: string) => void;
  /** How a refusal begins ("The schedule was not saved"). */
  failure?: string;
};

/** The kickoff form, generated from the crew's input_schema; the server's 422 lands on the fields. */
export function KickoffForm({
  crew,
  blocked,
  prefill,
  start,
  submitLabel = "Start run",
  lead,
  extra,
  onStarted,
  failure = "The run did not start",
}: KickoffFormProps) {
  const { data: schema, error: loadError } = useQuery({
    queryKey: ["crews", crew, "inputs"],
    queryFn: () => loadSchema(crew),
  });
  const [values, setValues] = useState<Record<string, FormValue> | null>(null);
  const kickoff = useKickoff({ crew, rerun: Boolean(prefill), start, onStarted, failure });
  if (loadError)
    return (
      <Alert tone="danger" title="Could not load the crew's inputs">
        {loadError.message} Reload the page to try again.
      </Alert>
    );
  if (!schema) return <KickoffLoading />;
  const current = values ?? initialValues(schema, prefill);
  const { fieldErrors, submitting } = kickoff;
  const problems = Object.keys(fieldErrors).length;
  return (
    <form
      method="post"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void kickoff.submit(schema, current);
      }}
      noValidate
      className="grid gap-4 [&_button[type=submit]]:mt-0 [&_label]:m-0"
    >
      {lead}
      {schema["x-order"].length === 0 && (
        <p className="text-muted-foreground text-sm">This crew needs no inputs.</p>
      )}
      {schema["x-order"].map((name) => {
        const prop = schema.properties[name];
        if (!prop) return null;
        return (
          <KickoffField
            key={name}
            name={name}
            prop={prop}
            required={schema.required.includes(name)}
            value={current[name] ?? ""}
            error={fieldErrors[name]}
            onChange={(v) => {
              setValues({ ...current, [name]: v });
              kickoff.clearError(name);
            }}
          />
        );
      })}
      {problems > 0 && (
        <Alert tone="danger">
          {failure}: fix the marked {problems === 1 ? "field" : "fields"}.
        </Alert>
      )}
      {kickoff.formError && <Alert tone="danger">{kickoff.formError}</Alert>}
      <BlockedAlert blocked={blocked} />
      {extra}
      <div className="flex items-center gap-3">
        <Button type="submit" variant="primary" disabled={submitting || !!blocked?.length}>
          <Play aria-hidden />
          {submitting ? "Starting…" : submitLabel}
        </Button>
        {schema.required.length > 0 && (
          <span className="text-muted-foreground text-xs">* required</span>
        )}
      </div>
    </form>
  );
}

function KickoffLoading() {
  return (
    <div className="grid gap-4" aria-busy="true">
      <Skeleton className="h-14" />
      <Skeleton className="h-14" />
      <Skeleton className="h-9 w-28" />
    </div>
  );
}

/** Why a run of this crew cannot succeed now (a model's key missing). */
function BlockedAlert({ blocked }: { blocked: string[] | undefined }) {
  if (!blocked?.length) return null;
  return (
    <Alert tone="warning" title="This crew cannot run yet">
      <ul className="m-0 grid list-none gap-1 p-0">
        {blocked.map((b) => (
          <li key={b}>{b}</li>
        ))}
      </ul>
    </Alert>
  );
}
