import { ROLES, type Role } from "@/lib/config/roles";
import type { Principal } from "./principal";

// The roles themselves are lib/config/roles.ts's (the environment is checked against them).
export { ROLES, type Role };

// `manage`: the deployment's plumbing (webhook deliveries), for organization tokens and admins;
// `admin`: people and access, for administrators only.
export type Action = "read" | "start" | "stop" | "review" | "manage" | "admin";
const NEEDS: Record<Action, Role> = {
  read: "viewer",
  start: "operator",
  stop: "operator",
  review: "reviewer",
  manage: "admin",
  admin: "admin",
};

export const isAction = (value: unknown): value is Action =>
  typeof value === "string" && Object.hasOwn(NEEDS, value);

export function roleAllows(role: Role, action: Action) {
  return ROLES.indexOf(role) >= ROLES.indexOf(NEEDS[action]);
}

/**
 * Whether the principal may take `action` at all. (Which executions it may touch is separate:
 * see canSeeExecution.) Organization tokens may do everything but manage people; a user token
 * what its owner's role allows, on its own executions, but never the deployment's plumbing or
 * people (a leaked personal token must not become an administrator's); people signed in, what
 * their role allows.
 */
export function can(p: Principal, action: Action) {
  if (p.kind === "org") return action !== "admin";
  if (p.kind === "user" && (action === "admin" || action === "manage")) return false;
  return roleAllows(p.role, action);
}
