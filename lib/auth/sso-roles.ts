import { higherRole, type Role, type RoleMap } from "@/lib/config/roles";

// Mapping an identity provider's groups to Crewdeck roles: pure, so it is tested on its own.

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
    if (role && (!best || higherRole(role, best))) best = role;
  }
  return best ?? (fallback === "none" ? null : fallback);
}
