import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { ErrorText } from "@/components/error-text";
import { signIn } from "@/lib/auth/session";
import { countUsersWithPassword, createUser, NewUserSchema } from "@/lib/auth/users";
import { getDb } from "@/lib/db";

export const metadata: Metadata = { title: "First-run setup" };
export const dynamic = "force-dynamic";

// The first administrator, when neither ADMIN_EMAIL/ADMIN_PASSWORD nor any user exists. Once
// someone can sign in, this page is gone.
async function setupAction(formData: FormData) {
  "use server";
  const db = await getDb();
  if ((await countUsersWithPassword(db)) > 0) redirect("/sign-in");
  const parsed = NewUserSchema.safeParse({
    email: formData.get("email"),
    name: formData.get("name") || undefined,
    password: formData.get("password"),
    role: "admin",
  });
  if (!parsed.success) {
    const message = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    redirect(`/setup?error=${encodeURIComponent(message)}`);
  }
  await createUser(db, parsed.data);
  await signIn("credentials", {
    email: parsed.data.email,
    password: parsed.data.password,
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
