import "server-only";
import { env } from "@/lib/config/env";
import type { Db } from "@/lib/db/types";
import type { SsoConfig } from "./sso-config";
import { groupsFrom, roleForGroups } from "./sso-roles";
import { fetchUserinfo } from "./sso-userinfo";
import { provisionSsoUser, type SsoRefusal, setSsoRole } from "./sso-users";
import { endSessions } from "./users";

// What the identity provider says about a person decides their access: at sign-in (create them,
// set their role from their groups) and again on later requests (lib/auth/session.ts), so that
// someone removed from the mapped group loses that access at their next request.

const claimString = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);

/**
 * Signs in the person an ID token names. Their groups come from the ID token and the userinfo
 * endpoint (userinfo wins where both have the claim: it is what later re-checks read).
 */
export async function ssoSignIn(
  db: Db,
  config: SsoConfig,
  { idClaims, accessToken }: { idClaims: Record<string, unknown>; accessToken: string | undefined },
): Promise<{ id: string } | { refused: SsoRefusal | "sso-unavailable" }> {
  const subject = claimString(idClaims.sub);
  if (!subject || !accessToken) return refuse("sso-unavailable", "no subject or access token");
  const info = await fetchUserinfo(config, accessToken, subject);
  if (info.kind !== "ok")
    return refuse("sso-unavailable", info.kind === "refused" ? "userinfo refused" : info.reason);
  const claims = { ...idClaims, ...info.claims };
  const email = claimString(claims.email)?.toLowerCase();
  if (!email) return refuse("sso-no-email", `${subject} has no email claim`);
  if (claims.email_verified === false) return refuse("sso-unverified-email", email);
  // The recovery administrator is Crewdeck's own account: the provider must not be able to sign
  // in to it (or demote it through its groups).
  const admin = env().ADMIN_EMAIL?.toLowerCase();
  if (admin && email === admin) return refuse("sso-recovery-account", email);
  const groups = groupsFrom(claims, config.groupsClaim) ?? [];
  const role = roleForGroups(groups, config.roleMap, config.defaultRole);
  if (!role) return refuse("sso-no-role", `${email} is in no mapped group`);
  const user = await provisionSsoUser(db, { email, name: claimString(claims.name) ?? null, role });
  if ("refused" in user) return refuse(user.refused, email);
  confirmed.set(user.id, Date.now());
  console.info(`[auth] ${email} signed in through single sign-on as ${role}`);
  return user;
}

function refuse<R extends string>(refused: R, why: string) {
  console.warn(`[auth] single sign-on refused (${refused}): ${why}`);
  return { refused };
}

// When each person's access was last confirmed with the provider (OIDC_RECHECK_SECONDS), and the
// confirmations under way (a page and its API calls arriving together ask the provider once).
const confirmed = new Map<string, number>();
const underway = new Map<string, Promise<boolean>>();

/**
 * Whether the person may still use the dashboard as the provider sees them now: their access
 * token still works and their groups still map to a role (which is updated if it changed).
 * Someone in no mapped group any more is signed out everywhere. When the provider cannot be
 * asked, this request is refused but the session is kept (it works again once it answers).
 */
export async function confirmSsoAccess(
  db: Db,
  config: SsoConfig,
  { userId, subject, accessToken }: { userId: string; subject: string; accessToken: string },
): Promise<boolean> {
  const last = confirmed.get(userId);
  if (last !== undefined && Date.now() - last < config.recheckSeconds * 1000) return true;
  const key = `${userId} ${accessToken}`;
  let check = underway.get(key);
  if (!check) {
    check = recheck(db, config, { userId, subject, accessToken }).finally(() =>
      underway.delete(key),
    );
    underway.set(key, check);
  }
  return check;
}

async function recheck(
  db: Db,
  config: SsoConfig,
  { userId, subject, accessToken }: { userId: string; subject: string; accessToken: string },
) {
  const info = await fetchUserinfo(config, accessToken, subject);
  if (info.kind === "unavailable") {
    console.warn(`[auth] cannot confirm ${subject} with the identity provider: ${info.reason}`);
    return false;
  }
  if (info.kind === "refused") {
    // The token expired or was revoked: this cookie is done; the person signs in again.
    console.info(`[auth] the identity provider no longer accepts ${subject}'s token`);
    return false;
  }
  const groups = groupsFrom(info.claims, config.groupsClaim);
  // A provider whose userinfo does not carry groups: the role from sign-in stands.
  if (groups !== undefined) {
    const role = roleForGroups(groups, config.roleMap, config.defaultRole);
    if (!role) {
      console.info(`[auth] ${subject} is in no mapped group any more: signed out`);
      await endSessions(db, userId);
      confirmed.delete(userId);
      return false;
    }
    if (await setSsoRole(db, userId, role))
      console.info(`[auth] ${subject}'s groups now give the role ${role}`);
  }
  confirmed.set(userId, Date.now());
  return true;
}
