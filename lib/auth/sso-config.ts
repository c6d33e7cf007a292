import { env } from "@/lib/config/env";
import { parseRoleMap, type RoleMap } from "@/lib/config/roles";
import type { Role } from "./roles";

export type SsoConfig = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  name: string;
  scopes: string;
  groupsClaim: string;
  roleMap: RoleMap;
  defaultRole: Role | "none";
  recheckSeconds: number;
};

/** next-auth's id for the provider: the callback is /api/auth/callback/oidc. */
export const SSO_PROVIDER_ID = "oidc";

let cached: { config: SsoConfig | undefined } | undefined;

/** The OpenID Connect settings, or undefined when single sign-on is not configured. */
export function ssoConfig(): SsoConfig | undefined {
  if (cached) return cached.config;
  const e = env();
  const config =
    e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
      ? {
          issuer: e.OIDC_ISSUER,
          clientId: e.OIDC_CLIENT_ID,
          clientSecret: e.OIDC_CLIENT_SECRET,
          name: e.OIDC_NAME,
          scopes: e.OIDC_SCOPES,
          groupsClaim: e.OIDC_GROUPS_CLAIM,
          roleMap: parseRoleMap(e.OIDC_ROLE_MAP),
          defaultRole: e.OIDC_DEFAULT_ROLE,
          recheckSeconds: e.OIDC_RECHECK_SECONDS,
        }
      : undefined;
  cached = { config };
  return config;
}

/**
 * Whether this email may sign in with a password. PASSWORD_SIGN_IN=false leaves only the
 * ADMIN_EMAIL account (the recovery administrator, for when the identity provider is down or
 * its groups are mis-mapped).
 */
export function passwordSignInAllowed(email: string) {
  const e = env();
  if (e.PASSWORD_SIGN_IN) return true;
  return !!e.ADMIN_EMAIL && e.ADMIN_EMAIL.toLowerCase() === email.toLowerCase();
}

/** Whether the sign-in page offers the password form to everyone. */
export const passwordFormOffered = () => env().PASSWORD_SIGN_IN;
