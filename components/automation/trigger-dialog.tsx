"use client";

import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { SelectField } from "@/components/ui/select-field";
import { inputsApi, type Trigger } from "@/lib/api/client";
import { NameField, OpenerButton, TextField } from "./form-bits";
import { SecretOnce } from "./secret-once";
import { isPolicy } from "./trigger-body";
import { type TriggerFormProps, type TriggerFormState, useTriggerForm } from "./use-trigger-form";

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
      <OpenerButton kind="trigger" editing={!!trigger} onClick={() => setOpen(true)} />
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

type Props = { form: TriggerFormState; id: (f: string) => string };

function TriggerForm(props: TriggerFormProps) {
  const { crew, trigger } = props;
  const base = useId();
  const form = useTriggerForm(props);
  const id = (f: string) => `${base}-${f}`;
  return (
    <form onSubmit={form.submit} noValidate className="grid gap-4">
      <NameField id={id("name")} form={form} placeholder="e.g. Issue opened" />
      <SelectField
        id={id("signature")}
        label="Sender signs as"
        value={form.signature}
        disabled={!!trigger}
        onChange={(e) => form.setSignature(e.target.value)}
        options={SENDERS}
      />
      <MappingFields crew={crew} form={form} id={id} />
      <ConcurrencyFields form={form} id={id} />
      {form.formError && (
        <Alert tone="danger">
          The trigger was not {trigger ? "saved" : "created"}: {form.formError}
        </Alert>
      )}
      <Button type="submit" variant="primary" disabled={form.busy} className="justify-self-start">
        {trigger ? "Save the trigger" : "Create trigger"}
      </Button>
    </form>
  );
}

function MappingFields({ crew, form, id }: Props & { crew: string }) {
  const { data: inputs } = useQuery({
    queryKey: ["crews", crew, "input-names"],
    queryFn: async () => (await inputsApi.get(crew)).input_schema["x-order"],
  });
  const { mapping, errors } = form;
  return (
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
          <TextField
            key={input}
            id={id(`map-${input}`)}
            label={input}
            error={errors[`mapping.${input}`]}
            className="font-mono"
            value={mapping[input] ?? ""}
            placeholder={`e.g. $.${input}`}
            setValue={(v) => form.setMapping({ ...mapping, [input]: v })}
          />
        ))
      )}
    </fieldset>
  );
}

function ConcurrencyFields({ form, id }: Props) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField
        id={id("key")}
        label="Concurrency key"
        error={form.errors["concurrency.key"]}
        help="Optional: one run at a time per value, e.g. $.issue.id."
        className="font-mono"
        value={form.key}
        setValue={form.setKey}
      />
      <SelectField
        id={id("policy")}
        label="When a run with that key is going"
        value={form.policy}
        disabled={!form.key.trim()}
        onChange={(e) => isPolicy(e.target.value) && form.setPolicy(e.target.value)}
        options={POLICIES}
      />
    </div>
  );
}
