"use client";

import { useActionState, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { type SignInState, signInAction } from "@/lib/auth/sign-in-action";

export function SignInForm({ next, initialError }: { next: string; initialError: string | null }) {
  const [state, action, pending] = useActionState<SignInState, FormData>(signInAction, {
    error: initialError,
  });
  // Controlled, so a refused attempt keeps the email (React resets uncontrolled fields after an action).
  const [email, setEmail] = useState("");
  return (
    <form action={action} className="grid gap-4">
      {state.error && <Alert tone="danger">{state.error}</Alert>}
      <input type="hidden" name="next" value={next} />
      <Field id="email" label="Email">
        <Input
          id="email"
          name="email"
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </Field>
      <Field id="password" label="Password">
        <Input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
        />
      </Field>
      <Button type="submit" variant="primary" disabled={pending} className="w-full">
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
