"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Pencil, Webhook } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { Field, fieldAria } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";
import { toast } from "@/components/ui/toast";
import { ApiError, automationApi, inputsApi, type Trigger } from "@/lib/api/client";
import { SecretOnce } from "./secret-once";

export const SENDERS = [
  { value: "standard", label: "Standard Webhooks (signed)" },
  { value: "github", label: "GitHub (X-Hub-Signature-256)" },
  { value: "shared", label: "Shared secret (bearer token)" },
] as const;

const POLICIES = [
  { value: "enqueue", label: "Queue it after the running one" },
  { value: "reject", label: "Refuse it (409)" },
  { value: "stop", label: "Stop the running one" },
];

/**
 * "New trigger": who sends, how the payload maps to each input; then its secret, once. Given a
 * trigger: "Edit", its mapping and key (who signs stays; rotate the secret to change it).
 */
export function TriggerDialog({ crew, trigger }: { crew: string; trigger?: Trigger }) {
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<(Trigger & { secret: string }) | null>(null);
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) setCreated(null);
      }}
    >
      {trigger ? (
        <Button size="sm" variant="ghost" onClick={() => setOpen(true)}>
          <Pencil aria-hidden />
          Edit
        </Button>
      ) : (
        <Button size="sm" variant="primary" onClick={() => setOpen(true)}>
          <Webhook aria-hidden />
          New trigger
        </Button>
      )}
      <DialogContent
        title={
          created
            ? `Trigger “${created.name}” created`
            : trigger
              ? `Edit “${trigger.name}”`
              : "New trigger"
        }
        description={
          created
            ? "Give the sender this address and secret. The secret is shown now only."
            : "An address another system posts its events to; each delivery starts a run with inputs taken from its JSON."
        }
        className="sm:max-w-xl"
      >
        {created ? (
          <SecretOnce trigger={created} onDone={() => setOpen(false)} />
        ) : (
          <TriggerForm
            crew={crew}
            trigger={trigger}
            onCreated={setCreated}
            onSaved={() => setOpen(false)}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function TriggerForm({
  crew,
  trigger,
  onCreated,
  onSaved,
}: {
  crew: string;
  trigger?: Trigger;
  onCreated: (t: Trigger & { secret: string }) => void;
  onSaved: () => void;
}) {
  const base = useId();
  const queryClient = useQueryClient();
  const { data: inputs } = useQuery({
    queryKey: ["crews", crew, "input-names"],
    queryFn: async () => (await inputsApi.get(crew)).input_schema["x-order"],
  });
  const [name, setName] = useState(trigger?.name ?? "");
  const [signature, setSignature] = useState<string>(trigger?.signature ?? "standard");
  const [mapping, setMapping] = useState<Record<string, string>>(trigger?.mapping ?? {});
  const [key, setKey] = useState(trigger?.concurrency?.key ?? "");
  const [policy, setPolicy] = useState<string>(trigger?.concurrency?.policy ?? "enqueue");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = (f: string) => `${base}-${f}`;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!name.trim()) return setErrors({ name: "Name it: it is shown on every run it starts." });
    setBusy(true);
    setErrors({});
    setFormError(null);
    try {
      const body = {
        name: name.trim(),
        mapping: Object.fromEntries(
          Object.entries(mapping).flatMap(([k, v]) => (v.trim() ? [[k, v.trim()]] : [])),
        ),
        concurrency: key.trim()
          ? { key: key.trim(), policy: policy as "enqueue" | "reject" | "stop" }
          : null,
      };
      const api = automationApi(crew);
      if (trigger) await api.updateTrigger(trigger.id, body);
      else onCreated(await api.createTrigger({ ...body, signature, inputs: {} }));
      void queryClient.invalidateQueries({ queryKey: ["crews", crew, "triggers"] });
      if (trigger) {
        toast.success(`“${body.name}” saved.`);
        onSaved();
      }
    } catch (err) {
      const byField: Record<string, string> = {};
      if (err instanceof ApiError)
        for (const fe of err.problem.errors ?? []) byField[fe.path] = fe.message;
      setErrors(byField);
      if (!Object.keys(byField).length) setFormError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <Field id={id("name")} label="Name" required error={errors.name}>
        <Input
          {...fieldAria(id("name"), { error: errors.name })}
          value={name}
          placeholder="e.g. Issue opened"
          onChange={(e) => setName(e.target.value)}
        />
      </Field>
      <Field id={id("signature")} label="Sender signs as">
        <Select
          id={id("signature")}
          value={signature}
          disabled={!!trigger}
          onChange={(e) => setSignature(e.target.value)}
        >
          {SENDERS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </Select>
      </Field>
      <fieldset className="m-0 grid gap-3 border-0 p-0">
        <legend className="mb-1 font-medium text-sm">Inputs from the payload</legend>
        <p className="m-0 text-muted-foreground text-xs">
          JSONPath (starts with $, e.g. $.issue.title) or CEL over payload and headers (e.g.
          payload.repository.name + " team"). Leave one empty for its default.
        </p>
        {!inputs ? (
          <p className="m-0 text-muted-foreground text-sm">Loading the crew's inputs…</p>
        ) : inputs.length === 0 ? (
          <p className="m-0 text-muted-foreground text-sm">This crew needs no inputs.</p>
        ) : (
          inputs.map((input) => (
            <Field
              key={input}
              id={id(`map-${input}`)}
              label={input}
              error={errors[`mapping.${input}`]}
            >
              <Input
                {...fieldAria(id(`map-${input}`), { error: errors[`mapping.${input}`] })}
                className="font-mono"
                value={mapping[input] ?? ""}
                placeholder={`e.g. $.${input}`}
                onChange={(e) => setMapping({ ...mapping, [input]: e.target.value })}
              />
            </Field>
          ))
        )}
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id={id("key")}
          label="Concurrency key"
          error={errors["concurrency.key"]}
          help="Optional: one run at a time per value, e.g. $.issue.id."
        >
          <Input
            {...fieldAria(id("key"), { help: true, error: errors["concurrency.key"] })}
            className="font-mono"
            value={key}
            onChange={(e) => setKey(e.target.value)}
          />
        </Field>
        <Field id={id("policy")} label="When a run with that key is going">
          <Select
            id={id("policy")}
            value={policy}
            disabled={!key.trim()}
            onChange={(e) => setPolicy(e.target.value)}
          >
            {POLICIES.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      {formError && (
        <Alert tone="danger">
          The trigger was not {trigger ? "saved" : "created"}: {formError}
        </Alert>
      )}
      <Button type="submit" variant="primary" disabled={busy} className="justify-self-start">
        {trigger ? "Save the trigger" : "Create trigger"}
      </Button>
    </form>
  );
}
