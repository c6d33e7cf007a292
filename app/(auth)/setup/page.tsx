import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { ErrorText } from "@/components/error-text";
import { signIn } from "@/lib/auth/session";
import { runFirstSetup } from "@/lib/auth/sign-in-setup";
import { countUsersWithPassword } from "@/lib/auth/users";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";

export const metadata: Metadata = { title: "First-run setup" };
export const dynamic = "force-dynamic";

// The first administrator, when neither ADMIN_EMAIL/ADMIN_PASSWORD nor any user exists. Once
// someone can sign in, this page is gone. The setup code printed on the server console proves the
// visitor runs the server (not merely reaches its port); runFirstSetup is also POST /api/setup.
async function setupAction(formData: FormData) {
  "use server";
  const db = await getDb();
  const form = {
    code: formData.get("code") ?? "",
    email: formData.get("email") ?? "",
    name: formData.get("name") || undefined,
    password: formData.get("password") ?? "",
  };
  try {
    await runFirstSetup(db, form, await headers());
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.status === 409) redirect("/sign-in");
    const fields = (err.details.errors as { path: string; message: string }[] | undefined) ?? [];
    const message = fields.length
      ? fields.map((f) => `${f.path}: ${f.message}`).join("; ")
      : err.message;
    redirect(`/setup?error=${encodeURIComponent(message)}`);
  }
  await signIn("credentials", {
    email: form.email,
    password: form.password,
    redirectTo: "/",
  });
}

export default async function SetupPage({
  searchParams,
}: {
  searchParams: Promise<{ error?: string }>;
}) {
  if ((await countUsersWithPassword(await getDb())) > 0) redirect("/sign-in");
  const { error } = await searchParams;
  return (
    <section className="auth-card">
      <h1>Welcome to Crewdeck</h1>
      <p className="muted">
        Create the first administrator. You can invite the rest of the team afterwards.
      </p>
      <ErrorText>{error}</ErrorText>
      <form action={setupAction}>
        <label htmlFor="code">Setup code</label>
        <input id="code" name="code" autoComplete="one-time-code" spellCheck={false} required />
        <p className="muted small">Printed on the server console when Crewdeck started.</p>
        <label htmlFor="name">Name</label>
        <input id="name" name="name" autoComplete="name" />
        <label htmlFor="email">Email</label>
        <input id="email" name="email" type="email" autoComplete="username" required />
        <label htmlFor="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={10}
          required
        />
        <p className="muted small">At least 10 characters.</p>
        <button type="submit" className="primary">
          Create administrator
        </button>
      </form>
    </section>
  );
}
