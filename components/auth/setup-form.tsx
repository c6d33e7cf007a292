"use client";

import { useActionState, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, fieldAria } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { type SetupState, setupAction } from "@/lib/auth/setup-action";

const HELP = {
  code: "Printed on the server console when Crewdeck started.",
  password: "At least 10 characters.",
};

export function SetupForm() {
  const [state, action, pending] = useActionState<SetupState, FormData>(setupAction, {
    error: null,
    fields: {},
  });
  // Controlled, so a refused attempt keeps what was typed (React resets uncontrolled fields).
  const [values, setValues] = useState({ code: "", name: "", email: "" });
  const bind = (name: keyof typeof values) => ({
    name,
    value: values[name],
    onChange: (e: { target: { value: string } }) =>
      setValues((v) => ({ ...v, [name]: e.target.value })),
  });
  const err = state.fields;
  return (
    <form action={action} className="grid gap-4">
      {state.error && <Alert tone="danger">{state.error}</Alert>}
      <Field id="code" label="Setup code" help={HELP.code} error={err.code}>
        <Input
          {...fieldAria("code", { help: HELP.code, error: err.code })}
          {...bind("code")}
          autoComplete="one-time-code"
          spellCheck={false}
          className="font-mono"
          required
        />
      </Field>
      <Field id="name" label="Name" error={err.name}>
        <Input {...fieldAria("name", { error: err.name })} {...bind("name")} autoComplete="name" />
      </Field>
      <Field id="email" label="Email" error={err.email}>
        <Input
          {...fieldAria("email", { error: err.email })}
          {...bind("email")}
          type="email"
          autoComplete="username"
          required
        />
      </Field>
      <Field id="password" label="Password" help={HELP.password} error={err.password}>
        <Input
          {...fieldAria("password", { help: HELP.password, error: err.password })}
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={10}
          required
        />
      </Field>
      <Button type="submit" variant="primary" disabled={pending} className="w-full">
        {pending ? "Creating…" : "Create administrator"}
      </Button>
    </form>
  );
}
