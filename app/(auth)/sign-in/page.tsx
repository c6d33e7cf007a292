import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { safeNext } from "@/lib/auth/safe-next";
import { refusalMessage } from "@/lib/auth/sign-in-check";
import { countUsersWithPassword } from "@/lib/auth/users";
import { getDb } from "@/lib/db";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ error?: string; code?: string; next?: string }>;
}) {
  if ((await countUsersWithPassword(await getDb())) === 0) redirect("/setup");
  // `?error=1&code=…` is where next-auth itself sends a refused sign-in (e.g. its own form posts).
  const { error, code, next } = await searchParams;
  return (
    <div className="grid gap-5">
      <div className="grid gap-1">
        <h1 className="font-semibold text-lg">Sign in</h1>
        <p className="text-muted-foreground text-sm">Review and run your team's agent crews.</p>
      </div>
      <SignInForm next={safeNext(next)} initialError={error ? refusalMessage(code) : null} />
    </div>
  );
}
