"use client";

import { CalendarClock, Pencil, Webhook } from "lucide-react";
import type { ComponentProps, ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Field, fieldAria } from "@/components/ui/field";
import { Input } from "@/components/ui/input";

const NEW = {
  schedule: { icon: CalendarClock, label: "New schedule" },
  trigger: { icon: Webhook, label: "New trigger" },
};

/** What opens a schedule's or trigger's dialog: "Edit" on its row, "New …" above the list. */
export function OpenerButton({
  kind,
  editing,
  onClick,
}: {
  kind: keyof typeof NEW;
  editing: boolean;
  onClick: () => void;
}) {
  const { icon: Icon, label } = NEW[kind];
  return editing ? (
    <Button size="sm" variant="ghost" onClick={onClick}>
      <Pencil aria-hidden />
      Edit
    </Button>
  ) : (
    <Button size="sm" variant="primary" onClick={onClick}>
      <Icon aria-hidden />
      {label}
    </Button>
  );
}

/** A labelled text input wired to its help and error; `after` goes under the input. */
export function TextField({
  id,
  label,
  help,
  error,
  required,
  setValue,
  after,
  ...props
}: Omit<ComponentProps<"input">, "id"> & {
  id: string;
  label: string;
  help?: string;
  error?: string;
  setValue: (v: string) => void;
  after?: ReactNode;
}) {
  return (
    <Field id={id} label={label} required={required} error={error} help={help}>
      <Input
        {...fieldAria(id, { help, error })}
        {...props}
        onChange={(e) => setValue(e.target.value)}
      />
      {after}
    </Field>
  );
}

/** A schedule's or trigger's name, required: it is shown on every run it starts. */
export function NameField({
  id,
  form,
  placeholder,
}: {
  id: string;
  form: { name: string; setName: (v: string) => void; errors: Record<string, string> };
  placeholder: string;
}) {
  return (
    <TextField
      id={id}
      label="Name"
      required
      error={form.errors.name}
      value={form.name}
      setValue={form.setName}
      placeholder={placeholder}
    />
  );
}
