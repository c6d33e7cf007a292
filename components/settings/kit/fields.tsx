"use client";

import { type ComponentProps, type FormEvent, type ReactNode, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";

/**
 * A form that posts (a click before the page's script has loaded must not send what was typed
 * in the URL) and, once hydrated, hands the submission to `onSubmit` instead.
 */
export function SettingsForm({
  onSubmit,
  ...props
}: Omit<ComponentProps<"form">, "onSubmit" | "method"> & { onSubmit: () => void }) {
  return (
    <form
      method="post"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        onSubmit();
      }}
      {...props}
    />
  );
}

/** A labelled text input; `help` is said under it and read with it. */
export function InputField({
  id,
  label,
  help,
  fieldClassName,
  ...props
}: ComponentProps<"input"> & {
  id: string;
  label: ReactNode;
  help?: ReactNode;
  fieldClassName?: string;
}) {
  return (
    <Field id={id} label={label} help={help} className={fieldClassName}>
      <Input id={id} aria-describedby={help ? `${id}-help` : undefined} {...props} />
    </Field>
  );
}

/** A form's submit button that says what it is doing while the request is out. */
export function SubmitButton({
  busy,
  busyLabel,
  children,
}: {
  busy: boolean;
  busyLabel?: string;
  children: ReactNode;
}) {
  return (
    <Button type="submit" variant="primary" disabled={busy}>
      {busy && busyLabel ? busyLabel : children}
    </Button>
  );
}

/** "Test connection", saying so while it waits for the answer. */
export function TestButton({
  testing,
  onClick,
  size,
}: {
  testing: boolean;
  onClick: () => void;
  size?: "sm";
}) {
  return (
    <Button size={size} onClick={onClick} disabled={testing}>
      {testing ? "Testing…" : "Test connection"}
    </Button>
  );
}

/**
 * A form's text fields as one state: `bind(name)` gives a control its id (`prefix-name`, with
 * `_` as `-`), value and change handler; `set` changes one; `reset()` empties the form after it
 * was sent.
 */
export function useFields<T extends Record<string, string>>(prefix: string, initial: T) {
  const [values, setValues] = useState(initial);
  const set = (name: keyof T & string, value: string) =>
    setValues((v) => ({ ...v, [name]: value }));
  const bind = (name: keyof T & string) => ({
    id: `${prefix}-${name.replaceAll("_", "-")}`,
    value: values[name],
    onChange: (e: { target: { value: string } }) => set(name, e.target.value),
  });
  return { values, bind, set, reset: () => setValues(initial) };
}
