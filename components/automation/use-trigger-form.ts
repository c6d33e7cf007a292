"use client";

import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { toast } from "@/components/ui/toast";
import { automationApi, type Trigger } from "@/lib/api/client";
import { errorsByField, type Policy, triggerBody } from "./trigger-body";

export type TriggerFormProps = {
  crew: string;
  trigger?: Trigger;
  onCreated: (t: Trigger & { secret: string }) => void;
  onSaved: () => void;
};

/** The trigger form's state, and its submit: create (then show the secret) or save. */
export function useTriggerForm({ crew, trigger, onCreated, onSaved }: TriggerFormProps) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(trigger?.name ?? "");
  const [signature, setSignature] = useState<string>(trigger?.signature ?? "standard");
  const [mapping, setMapping] = useState<Record<string, string>>(trigger?.mapping ?? {});
  const [key, setKey] = useState(trigger?.concurrency?.key ?? "");
  const [policy, setPolicy] = useState<Policy>(trigger?.concurrency?.policy ?? "enqueue");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!name.trim()) return setErrors({ name: "Name it: it is shown on every run it starts." });
    setBusy(true);
    setErrors({});
    setFormError(null);
    try {
      const body = triggerBody({ name, mapping, key, policy });
      const api = automationApi(crew);
      if (trigger) await api.updateTrigger(trigger.id, body);
      else onCreated(await api.createTrigger({ ...body, signature, inputs: {} }));
      void queryClient.invalidateQueries({ queryKey: ["crews", crew, "triggers"] });
      if (trigger) {
        toast.success(`“${body.name}” saved.`);
        onSaved();
      }
    } catch (err) {
      const byField = errorsByField(err);
      setErrors(byField);
      if (!Object.keys(byField).length) setFormError(err instanceof Error ? err.message : null);
    } finally {
      setBusy(false);
    }
  }

  return {
    name,
    setName,
    signature,
    setSignature,
    mapping,
    setMapping,
    key,
    setKey,
    policy,
    setPolicy,
    errors,
    formError,
    busy,
    submit,
  };
}

export type TriggerFormState = ReturnType<typeof useTriggerForm>;
