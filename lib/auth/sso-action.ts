"use server";

import { redirect, unstable_rethrow } from "next/navigation";
import { safeNext } from "@/lib/auth/safe-next";
import { signIn } from "@/lib/auth/session";
import { SSO_PROVIDER_ID } from "@/lib/auth/sso-config";
import { errorMessage } from "@/lib/errors";

/** The sign-in page's "Sign in with …" button: off to the identity provider, back to `next`. */
export async function ssoSignInAction(formData: FormData): Promise<void> {
  const next = safeNext(formData.get("next"));
  try {
    await signIn(SSO_PROVIDER_ID, { redirectTo: next });
  } catch (err) {
    unstable_rethrow(err); // the redirect to the provider that signIn throws on success
    // Discovery failed: the provider is down or OIDC_ISSUER is wrong.
    console.warn(`[auth] cannot start single sign-on: ${errorMessage(err)}`);
    redirect(`/sign-in?error=sso-unavailable&next=${encodeURIComponent(next)}`);
  }
}
