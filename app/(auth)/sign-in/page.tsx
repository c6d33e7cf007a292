import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { SsoButton } from "@/components/auth/sso-button";
import { Alert } from "@/components/ui/alert";
import { safeNext } from "@/lib/auth/safe-next";
import { refusalMessage } from "@/lib/auth/sign-in-check";
import { passwordFormOffered, ssoConfig } from "@/lib/auth/sso-config";
import { isSsoErrorCode, ssoErrorMessage } from "@/lib/auth/sso-errors";
import { countUsersWithPassword } from "@/lib/auth/users";
import { getDb } from "@/lib/db";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ error?: string; code?: string; next?: string; recovery?: string }>;
}) {
  const sso = ssoConfig();
  // With single sign-on, people arrive through the provider: no first-run setup is needed.
  if (!sso && (await countUsersWithPassword(await getDb())) === 0) redirect("/setup");
  // `?error=1&code=…` is where next-auth itself sends a refused sign-in (e.g. its own form posts);
  // `?error=sso-…` a refused single sign-on (lib/auth/sso-errors.ts).
  const { error, code, next, recovery } = await searchParams;
  const ssoError = isSsoErrorCode(error) ? ssoErrorMessage(error) : null;
  const passwordError = error && !ssoError ? refusalMessage(code) : null;
  // PASSWORD_SIGN_IN=false: the form only for the recovery administrator, behind a link.
  const showPassword = !sso || passwordFormOffered() || recovery === "1";
  return (
    <div className="grid gap-5">
      <div className="grid gap-1">
        <h1 className="font-semibold text-lg">Sign in</h1>
        <p className="text-muted-foreground text-sm">Review and run your team's agent crews.</p>
      </div>
      {ssoError && <Alert tone="danger">{ssoError}</Alert>}
      {sso && <SsoButton name={sso.name} next={safeNext(next)} />}
      {sso && showPassword && (
        <p className="text-center text-muted-foreground text-xs">or with your email and password</p>
      )}
      {showPassword && <SignInForm next={safeNext(next)} initialError={passwordError} />}
      {!showPassword && (
        <Link
          href="/sign-in?recovery=1"
          className="text-center text-muted-foreground text-xs underline-offset-4 hover:underline"
        >
          Administrator recovery (password)
        </Link>
      )}
    </div>
  );
}
