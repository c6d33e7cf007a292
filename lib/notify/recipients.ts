import { z } from "zod";
import { ROLES, roleAllows } from "@/lib/auth/roles";
import { json } from "@/lib/db/columns";
import type { Queryable } from "@/lib/db/types";
import { type NotificationPrefs, withDefaults } from "./preferences";

const PersonRow = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role: z.enum(ROLES),
  teams: z.array(z.string()).nullable(),
  notification_prefs: json,
});
export type Person = Omit<z.infer<typeof PersonRow>, "teams" | "notification_prefs"> & {
  teams: string[];
  prefs: NotificationPrefs;
};

/**
 * Who an assignee list means (issue 15's contract): a string with "@" is a person by e-mail
 * (case-insensitive), any other a role or a team; absent or empty, everyone who may review.
 * `people` are the enabled users only: disabled ones never receive anything.
 */
export function matchAssignees(assignees: readonly string[] | undefined, people: Person[]) {
  if (!assignees?.length) return people.filter((p) => roleAllows(p.role, "review"));
  const emails = new Set(assignees.filter((a) => a.includes("@")).map((a) => a.toLowerCase()));
  const groups = new Set(assignees.filter((a) => !a.includes("@")));
  return people.filter(
    (p) =>
      emails.has(p.email.toLowerCase()) || groups.has(p.role) || p.teams.some((t) => groups.has(t)),
  );
}

/** Every enabled user with their preferences: the candidates for one event's messages. */
export async function enabledPeople(q: Queryable): Promise<Person[]> {
  const { rows } = await q.query(
    `SELECT id, email, name, role, teams, notification_prefs FROM users
      WHERE disabled_at IS NULL ORDER BY email`,
    [],
    PersonRow,
  );
  return rows.map(({ notification_prefs, ...p }) => ({
    ...p,
    teams: p.teams ?? [],
    prefs: withDefaults(notification_prefs),
  }));
}

/** The assignees field of an event's data, when it is a list of strings. */
export function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : undefined;
}
