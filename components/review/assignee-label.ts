import { ROLES } from "@/lib/auth/roles";

/** How an assignee is shown: a person by e-mail, else a role or team, said which. */
export function assigneeLabel(a: string) {
  if (a.includes("@")) return a;
  return `${a} (${ROLES.some((r) => r === a) ? "role" : "team"})`;
}
