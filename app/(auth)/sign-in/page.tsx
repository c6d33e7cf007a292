import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthError, CredentialsSignin } from "next-auth";
import { ErrorText } from "@/components/error-text";
import { signIn } from "@/lib/auth/session";
import { refusalMessage } from "@/lib/auth/sign-in-check";
import { countUsersWithPassword } from "@/lib/auth/users";
import { getDb } from "@/lib/db";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

// Only same-site paths: an open redirect after sign-in would be a phishing aid.
const safeNext = (next: unknown) =>
  typeof next === "string" && next.startsWith("/") && !next.startsWith("//") ? next : "/";

async function signInAction(formData: FormData) {
  "use server";
  const next = safeNext(formData.get("next"));
  try {
    await signIn("credentials", {
      email: formData.get("email"),
      password: formData.get("password"),
      redirectTo: next,
    });
  } catch (err) {
    if (err instanceof AuthError) {
      // The code says whether it was a wrong password or a lock (with its length), so the page can
      // tell the two apart; it never says whether the email exists.
      const code = err instanceof CredentialsSignin ? err.code : "credentials";
      redirect(
        `/sign-in?error=1&code=${encodeURIComponent(code)}&next=${encodeURIComponent(next)}`,
      );
    }
    throw err; // the redirect that signIn throws on success
  }
}

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ error?: string; code?: string; next?: string }>;
}) {
  if ((await countUsersWithPassword(await getDb())) === 0) redirect("/setup");
  const { error, code, next } = await searchParams;
  return (
    <section className="auth-card">
      <h1>Sign in to Crewdeck</h1>
      {error && <ErrorText>{refusalMessage(code)}</ErrorText>}
      <form action={signInAction}>
        <input type="hidden" name="next" value={safeNext(next)} />
        <label htmlFor="email">Email</label>
        <input id="email" name="email" type="email" autoComplete="username" required />
        <label htmlFor="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
        />
        <button type="submit" className="primary">
          Sign in
        </button>
      </form>
    </section>
  );
}
