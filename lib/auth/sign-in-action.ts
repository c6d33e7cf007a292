"use server";

import { AuthError, CredentialsSignin } from "next-auth";
import { safeNext } from "@/lib/auth/safe-next";
import { signIn } from "@/lib/auth/session";
import { refusalMessage } from "@/lib/auth/sign-in-check";

export type SignInState = { error: string | null };

/** Signs in and redirects to `next`; a refusal comes back as a message, the form kept as typed. */
export async function signInAction(_prev: SignInState, formData: FormData): Promise<SignInState> {
  try {
    await signIn("credentials", {
      email: formData.get("email"),
      password: formData.get("password"),
      redirectTo: safeNext(formData.get("next")),
    });
  } catch (err) {
    if (err instanceof AuthError) {
      // The code tells a wrong password from a lock (with its length), never whether the email
      // exists.
      const code = err instanceof CredentialsSignin ? err.code : "credentials";
      return { error: refusalMessage(code) };
    }
    throw err; // the redirect that signIn throws on success
  }
  return { error: null };
}
