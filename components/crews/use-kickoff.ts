import { useRouter } from "next/navigation";
import { useState } from "react";
import { crewApi } from "@/lib/api/client";
import type { InputSchema } from "@/lib/crew/input-schema";
import type { FormValue } from "./kickoff-fields";
import { type KickoffInputs, kickoffInputs, refusalByField } from "./kickoff-values";

/** Focuses the first field (in the form's order) with a problem. */
function focusFirst(order: string[], errs: Record<string, string>) {
  const first = order.find((n) => errs[n]);
  if (first) document.getElementById(`input-${first}`)?.focus();
}

/**
 * Starting the run from the kickoff form: problems found before sending or in the server's 422
 * land on their fields (the first focused); anything else is said over the form.
 */
export function useKickoff({
  crew,
  rerun,
  start,
  onStarted,
  failure,
}: {
  crew: string;
  rerun: boolean;
  start?: (inputs: KickoffInputs) => Promise<string>;
  onStarted?: (id: string) => void;
  failure: string;
}) {
  const router = useRouter();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function submit(schema: InputSchema, values: Record<string, FormValue>) {
    if (submitting) return;
    const order = schema["x-order"];
    const { inputs, problems } = kickoffInputs(schema, values, rerun);
    setFieldErrors(problems);
    setFormError(null);
    if (Object.keys(problems).length) return focusFirst(order, problems);
    setSubmitting(true);
    try {
      const id = start ? await start(inputs) : (await crewApi(crew).kickoff(inputs)).kickoff_id;
      if (onStarted) {
        setSubmitting(false);
        onStarted(id);
      } else router.push(`/crews/${crew}/runs/${id}`);
    } catch (err) {
      setSubmitting(false);
      const byField = refusalByField(err, schema);
      setFieldErrors(byField);
      if (Object.keys(byField).length) focusFirst(order, byField);
      else setFormError(`${failure}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  /** A field changed: its problem is gone until the next try. */
  const clearError = (name: string) => {
    if (fieldErrors[name]) setFieldErrors(({ [name]: _, ...rest }) => rest);
  };
  return { submit, fieldErrors, formError, submitting, clearError };
}
