import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import { type Role, roleAllows } from "@/lib/auth/roles";
import type { Queryable } from "@/lib/db/types";
import type { OpenReview } from "@/lib/run-model/review-types";

/** Someone who may be assigned a review: a person's e-mail, role and teams. */
export type Person = { user_id: string; email: string; role: Role; teams: string[] };

/** The person behind a principal, with their teams (an organization token is no one). */
export async function personOf(q: Queryable, principal: Principal): Promise<Person | null> {
  if (principal.kind === "org") return null;
  const { rows } = await q.query(
    "SELECT teams FROM users WHERE id = $1",
    [principal.userId],
    z.object({ teams: z.array(z.string()) }),
  );
  return {
    user_id: principal.userId,
    email: principal.email.toLowerCase(),
    role: principal.role,
    teams: rows[0]?.teams ?? [],
  };
}

/** Whether `assignees` names this person: by e-mail, or by a role or team they hold. */
export function names(assignees: string[], person: Person): boolean {
  return assignees.some((a) => a === person.email || a === person.role || person.teams.includes(a));
}

/** Assigned to this person: named, or open to everyone who may review when no one is named. */
export function isAssigned(review: Pick<OpenReview, "assignees">, person: Person): boolean {
  if (!review.assignees.length) return roleAllows(person.role, "review");
  return names(review.assignees, person);
}

/** Assigned through a role or team they hold rather than by name ("My team"). */
export function isTeamReview(review: Pick<OpenReview, "assignees">, person: Person): boolean {
  return review.assignees.some((a) => a === person.role || person.teams.includes(a));
}

/**
 * Who may decide a review: an organization token (the program driving the crew), an
 * administrator (escalations land there), or someone whose role may review and who is assigned.
 */
export function mayDecide(review: Pick<OpenReview, "assignees">, person: Person | null): boolean {
  if (!person) return true;
  if (!roleAllows(person.role, "review")) return false;
  return person.role === "admin" || isAssigned(review, person);
}
