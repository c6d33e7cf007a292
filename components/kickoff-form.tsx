"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useEffect, useState } from "react";
import { ErrorText } from "@/components/error-text";
import { ApiError, crewApi } from "@/lib/api/client";

// Inputs whose names suggest prose get a text area.
const LONG =
  /(description|text|body|content|notes|brief|prompt|context|details|summary|question|instructions)/i;

/** The kickoff form, generated from GET /inputs: one required field per input. */
export function KickoffForm({ crew }: { crew: string }) {
  const router = useRouter();
  const [inputs, setInputs] = useState<string[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    crewApi(crew)
      .inputs()
      .then((r) => setInputs(r.inputs))
      .catch((err) => setLoadError(err instanceof Error ? err.message : String(err)));
  }, [crew]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!inputs) return;
    const missing = Object.fromEntries(
      inputs.filter((n) => !values[n]?.trim()).map((n) => [n, `${n} is required`]),
    );
    setFieldErrors(missing);
    setFormError(null);
    if (Object.keys(missing).length) return;
    setSubmitting(true);
    try {
      const { kickoff_id } = await crewApi(crew).kickoff(values);
      router.push(`/crews/${crew}/runs/${kickoff_id}`);
    } catch (err) {
      setSubmitting(false);
      if (err instanceof ApiError && err.problem.missing_inputs) {
        setFieldErrors(
          Object.fromEntries(err.problem.missing_inputs.map((n) => [n, `${n} is required`])),
        );
      } else {
        setFormError(err instanceof Error ? err.message : String(err));
      }
    }
  }

  if (loadError)
    return (
      <p role="alert" className="form-error">
        Could not load the crew's inputs: {loadError}
      </p>
    );
  if (!inputs)
    return (
      <p className="muted" aria-busy="true">
        Loading the form…
      </p>
    );
  return (
    <form onSubmit={submit} noValidate className="kickoff-form">
      {inputs.length === 0 && <p className="muted">This crew needs no inputs.</p>}
      {inputs.map((name) => {
        const id = `input-${name}`;
        const error = fieldErrors[name];
        const common = {
          id,
          name,
          value: values[name] ?? "",
          "aria-invalid": Boolean(error),
          "aria-describedby": error ? `${id}-error` : undefined,
          onChange: (e: { target: { value: string } }) =>
            setValues((v) => ({ ...v, [name]: e.target.value })),
        };
        return (
          <div key={name} className="field">
            <label htmlFor={id}>{name}</label>
            {LONG.test(name) ? <textarea rows={4} {...common} /> : <input {...common} />}
            {error && (
              <p id={`${id}-error`} className="field-error">
                {error}
              </p>
            )}
          </div>
        );
      })}
      <ErrorText>{formError}</ErrorText>
      <button type="submit" className="primary" disabled={submitting}>
        {submitting ? "Starting…" : "Start run"}
      </button>
    </form>
  );
}
