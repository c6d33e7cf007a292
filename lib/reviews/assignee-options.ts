import { z } from "zod";
import { roleAllows } from "@/lib/auth/roles";
import { ROLES, type Role } from "@/lib/config/roles";
import type { Queryable } from "@/lib/db/types";

/**
 * Whom a review may be given to, for the reassign picker: the people who may review (active, by
 * name and e-mail), the roles that may, and every team someone holds. A team or role is offered
 * with how many reviewers it reaches, so no one hands a review to an empty group.
 */
export async function assigneeOptions(q: Queryable) {
  const { rows } = await q.query(
    `SELECT lower(email) AS email, name, role, teams FROM users
      WHERE disabled_at IS NULL ORDER BY lower(coalesce(nullif(name, ''), email))`,
    [],
    z.object({
      email: z.string(),
      name: z.string().nullable(),
      role: z.enum(ROLES),
      teams: z.array(z.string()),
    }),
  );
  const reviewers = rows.filter((r) => roleAllows(r.role, "review"));
  const reach = (holds: (r: (typeof rows)[number]) => boolean) => reviewers.filter(holds).length;
  const teams = [...new Set(rows.flatMap((r) => r.teams))].sort();
  return {
    people: reviewers.map((r) => ({ email: r.email, name: r.name || null, role: r.role })),
    roles: ROLES.filter((role: Role) => roleAllows(role, "review")).map((role) => ({
      name: role,
      reviewers: reach((r) => r.role === role),
    })),
    teams: teams.map((team) => ({ name: team, reviewers: reach((r) => r.teams.includes(team)) })),
  };
}
