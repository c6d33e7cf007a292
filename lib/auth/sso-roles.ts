import { ROLES, type Role } from "./roles";

// Mapping an identity provider's groups to Crewdeck roles: pure, so it is tested on its own.

export type RoleMap = ReadonlyMap<string, Role>;

/** Parses OIDC_ROLE_MAP ("crewdeck-admins=admin,crewdeck-reviewers=reviewer"); throws on a typo. */
export function parseRoleMap(raw: string): RoleMap {
  const map = new Map<string, Role>();
  for (const pair of raw.split(",")) {
    if (!pair.trim()) continue;
    const at = pair.lastIndexOf("=");
    const group = pair.slice(0, at).trim();
    const role = pair.slice(at + 1).trim();
    if (at <= 0 || !group || !(ROLES as readonly string[]).includes(role)) {
      throw new Error(
        `OIDC_ROLE_MAP: "${pair.trim()}" is not group=role with a role of ${ROLES.join(", ")}`,
      );
    }
    const before = map.get(group);
    if (!before || higher(role as Role, before)) map.set(group, role as Role);
  }
  return map;
}

const higher = (a: Role, b: Role) => ROLES.indexOf(a) > ROLES.indexOf(b);

/** The groups in a claim: an array of strings, or one string (some providers send a single group). */
export function groupsFrom(claims: Record<string, unknown>, claim: string): string[] | undefined {
  const v = claims[claim];
  if (typeof v === "string") return [v];
  if (Array.isArray(v)) return v.filter((g): g is string => typeof g === "string");
  return undefined;
}

/** The highest role any of the groups maps to, else the default; null: no access. */
export function roleForGroups(
  groups: readonly string[],
  map: RoleMap,
  fallback: Role | "none",
): Role | null {
  let best: Role | null = null;
  for (const g of groups) {
    const role = map.get(g);
    if (role && (!best || higher(role, best))) best = role;
  }
  return best ?? (fallback === "none" ? null : fallback);
}
