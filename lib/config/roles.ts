import { isOneOf } from "@/lib/util/one-of";
// The roles a person can have, lowest first: each can do what the ones before it can, and more
// (lib/auth/roles.ts says what). The environment's OIDC settings are checked against them here.
export const ROLES = ["viewer", "operator", "reviewer", "admin"] as const;
export type Role = (typeof ROLES)[number];

export type RoleMap = ReadonlyMap<string, Role>;

/** Parses OIDC_ROLE_MAP ("crewdeck-admins=admin,crewdeck-reviewers=reviewer"); throws on a typo. */
export function parseRoleMap(raw: string): RoleMap {
  const map = new Map<string, Role>();
  for (const pair of raw.split(",")) {
    if (!pair.trim()) continue;
    const at = pair.lastIndexOf("=");
    const group = pair.slice(0, at).trim();
    const role = pair.slice(at + 1).trim();
    if (at <= 0 || !group || !isOneOf(ROLES, role)) {
      throw new Error(
        `OIDC_ROLE_MAP: "${pair.trim()}" is not group=role with a role of ${ROLES.join(", ")}`,
      );
    }
    const before = map.get(group);
    if (!before || higherRole(role, before)) map.set(group, role);
  }
  return map;
}

export const higherRole = (a: Role, b: Role) => ROLES.indexOf(a) > ROLES.indexOf(b);
