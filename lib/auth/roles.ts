import type { Principal } from "./principal";

// Each role can do what the ones before it can, and more.
export const ROLES = ["viewer", "operator", "reviewer", "admin"] as const;
export type Role = (typeof ROLES)[number];

export type Action = "read" | "start" | "stop" | "review" | "admin";
const NEEDS: Record<Action, Role> = {
  read: "viewer",
  start: "operator",
  stop: "operator",
  review: "reviewer",
  admin: "admin",
};

export function roleAllows(role: Role, action: Action) {
  return ROLES.indexOf(role) >= ROLES.indexOf(NEEDS[action]);
}

/**
 * Whether the principal may take `action` at all. (Which executions it may touch is separate:
 * see canSeeExecution.) Organization tokens may do everything on crews; user tokens everything on
 * their own executions but nothing admin; people signed in, what their role allows.
 */
export function can(p: Principal, action: Action) {
  if (p.kind === "org") return action !== "admin";
  if (p.kind === "user") return action !== "admin";
  return roleAllows(p.role, action);
}
