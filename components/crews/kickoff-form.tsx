"use client";

import { useQuery } from "@tanstack/react-query";
import { Play } from "lucide-react";
import { useRouter } from "next/navigation";
import { type FormEvent, type ReactNode, useState } from "react";
import { jsonProblem } from "@/components/json-problem";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { ApiError, crewApi, inputsApi } from "@/lib/api/client";
import type { InputSchema } from "@/lib/crew/input-schema";
import { type FormValue, KickoffField } from "./kickoff-fields";

// A crew whose /inputs has no input_schema (an older remote deployment): every input a text field.
const fromNames = (names: string[]): InputSchema => ({
  type: "object",
  properties: Object.fromEntries(
    names.map((n) => [n, { type: "string" as const, title: n, "x-control": "text" as const }]),
  ),
  required: names,
  "x-order": names,
});

async function loadSchema(crew: string): Promise<InputSchema> {
  try {
    return (await inputsApi.get(crew)).input_schema;
  } catch (err) {
    // Only an answer without input_schema falls back; a refusal or an outage is said as such.
    if (!(err instanceof ApiError && err.problem.type.endsWith(":unexpected_response"))) throw err;
    return fromNames((await crewApi(crew).inputs()).inputs);
  }
}

/** The form's first values: a re-run's origin inputs where given, else each input's default. */
function initial(
  schema: InputSchema,
  prefill?: Record<string, unknown>,
): Record<string, FormValue> {
  return Object.fromEntries(
    schema["x-order"].map((n) => {
      const p = schema.properties[n];
      const d = prefill && n in prefill ? prefill[n] : p?.default;
      if (p?.["x-control"] === "checkbox") return [n, d === true];
      if (d === undefined || d === null) return [n, ""];
      return [n, typeof d === "object" ? JSON.stringify(d, null, 2) : String(d)];
    }),
  );
}

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
}: {
  crew: string;
  /** Why a run of this crew cannot succeed now (a model's key missing): Start is disabled. */
  blocked?: string[];
  /** Values to start from (a re-run's origin inputs) instead of the defaults. */
  prefill?: Record<string, unknown>;
  /** Starts the run and answers its id (a re-run); a kickoff when not given. */
  start?: (inputs: Record<string, string | number | boolean>) => Promise<string>;
  submitLabel?: string;
  /** Fields above the inputs (a schedule's timing). */
  lead?: ReactNode;
  /** More fields, above the button (a re-run's models). */
  extra?: ReactNode;
  /** What to do with what `start` answered; the new run's page when not given. */
  onStarted?: (id: string) => void;
  /** How a refusal begins ("The schedule was not saved"). */
  failure?: string;
}) {
  const router = useRouter();
  const { data: schema, error: loadError } = useQuery({
    queryKey: ["crews", crew, "inputs"],
    queryFn: () => loadSchema(crew),
  });
  const [values, setValues] = useState<Record<string, FormValue> | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  if (loadError)
    return (
      <Alert tone="danger" title="Could not load the crew's inputs">
        {loadError.message} Reload the page to try again.
      </Alert>
    );
  if (!schema)
    return (
      <div className="grid gap-4" aria-busy="true">
        <Skeleton className="h-14" />
        <Skeleton className="h-14" />
        <Skeleton className="h-9 w-28" />
      </div>
    );
  const current = values ?? initial(schema, prefill);
  const order = schema["x-order"];

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!schema || submitting) return;
    const inputs: Record<string, string | number | boolean> = {};
    const local: Record<string, string> = {};
    for (const name of order) {
      const p = schema.properties[name];
      const v = current[name];
      if (!p || v === undefined) continue;
      if (typeof v === "boolean") {
        inputs[name] = v;
        continue;
      }
      if (v.trim() === "") {
        // Cleared on a re-run: said, or the origin's value would stay. The server says which of
        // the empty ones are required.
        if (prefill) inputs[name] = "";
        continue;
      }
      if (p["x-control"] === "number") inputs[name] = Number(v);
      else if (p["x-control"] === "json") {
        const problem = jsonProblem(v);
        if (problem) local[name] = problem;
        else inputs[name] = v;
      } else inputs[name] = v;
    }
    setFieldErrors(local);
    setFormError(null);
    if (Object.keys(local).length) return focusFirst(local);
    setSubmitting(true);
    try {
      const id = start ? await start(inputs) : (await crewApi(crew).kickoff(inputs)).kickoff_id;
      if (onStarted) {
        setSubmitting(false);
        onStarted(id);
      } else router.push(`/crews/${crew}/runs/${id}`);
    } catch (err) {
      setSubmitting(false);
      const byField: Record<string, string> = {};
      if (err instanceof ApiError) {
        for (const e of err.problem.errors ?? []) {
          const name = e.path.replace(/^inputs\./, "");
          if (order.includes(name)) byField[name] = e.message;
        }
        for (const n of err.problem.missing_inputs ?? [])
          byField[n] ??= `${schema.properties[n]?.title ?? n} is required.`;
      }
      setFieldErrors(byField);
      if (Object.keys(byField).length) focusFirst(byField);
      else setFormError(`${failure}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  function focusFirst(errs: Record<string, string>) {
    const first = order.find((n) => errs[n]);
    if (first) document.getElementById(`input-${first}`)?.focus();
  }

  return (
    <form
      method="post"
      onSubmit={submit}
      noValidate
      className="grid gap-4 [&_button[type=submit]]:mt-0 [&_label]:m-0"
    >
      {lead}
      {order.length === 0 && (
        <p className="text-muted-foreground text-sm">This crew needs no inputs.</p>
      )}
      {order.map((name) => {
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
              if (fieldErrors[name]) setFieldErrors(({ [name]: _, ...rest }) => rest);
            }}
          />
        );
      })}
      {Object.keys(fieldErrors).length > 0 && (
        <Alert tone="danger">
          {failure}: fix the marked {Object.keys(fieldErrors).length === 1 ? "field" : "fields"}.
        </Alert>
      )}
      {formError && <Alert tone="danger">{formError}</Alert>}
      {blocked?.length ? (
        <Alert tone="warning" title="This crew cannot run yet">
          <ul className="m-0 grid list-none gap-1 p-0">
            {blocked.map((b) => (
              <li key={b}>{b}</li>
            ))}
          </ul>
        </Alert>
      ) : null}
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
