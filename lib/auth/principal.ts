import type { Role } from "@/lib/config/roles";

// Who is calling. An organization token sees every execution; a user token only the executions
// it owns, and acts with its owner's current role (read fresh, like a session's); a person signed
// in to the dashboard sees every execution and may act as their role allows (lib/auth/roles.ts).
export type Principal =
  | { kind: "org"; tokenId: string | null }
  | { kind: "user"; tokenId: string; userId: string; email: string; role: Role }
  | { kind: "session"; userId: string; email: string; role: Role };

export function canSeeExecution(p: Principal, ownerUserId: string | null) {
  return p.kind !== "user" || ownerUserId === p.userId;
}

/** The user an execution started by this principal belongs to. */
export function ownerOf(p: Principal): string | null {
  return p.kind === "org" ? null : p.userId;
}

/** How the audit trail names the principal. */
export function principalName(p: Principal) {
  if (p.kind !== "org") return p.email;
  return p.tokenId ? `org-token:${p.tokenId}` : "org-token:CREW_TOKEN";
}

/** The one person whose runs (schedules, triggers) a principal reaches; null: everyone's. */
export const reachOf = (p: Principal): string | null => (p.kind === "user" ? p.userId : null);

/**
 * What a caller reaches of a crew's schedules and triggers: a user token only its owner's (as
 * with runs); a person signed in, or an organization token, every one.
 */
export type OwnerScope = { crew: string; owner: string | null };
export const ownerScope = (crew: string, p: Principal): OwnerScope => ({
  crew,
  owner: reachOf(p),
});
