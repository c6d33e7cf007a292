import { SSO_PROVIDER_ID } from "./sso-config";

/**
 * What a single sign-on cookie keeps for the re-checks: the provider's subject and the access
 * token its userinfo accepts. None for a sign-in of another provider, or without either.
 */
export function ssoClaim(
  account: { provider: string; access_token?: string } | null | undefined,
  profile: { sub?: string | null } | undefined,
): { sub: string; at: string } | undefined {
  if (account?.provider !== SSO_PROVIDER_ID || !account.access_token || !profile?.sub)
    return undefined;
  return { sub: profile.sub, at: account.access_token };
}
