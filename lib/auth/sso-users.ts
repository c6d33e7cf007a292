import crypto from "node:crypto";
import { z } from "zod";
import { IdRow } from "@/lib/db/columns";
import type { Db, Queryable } from "@/lib/db/types";
import type { Role } from "./roles";

// People who sign in through the identity provider: created on their first sign-in, their role
// set from their groups at every sign-in and every re-check. They have no password.

export type SsoRefusal =
  | "sso-no-email"
  | "sso-unverified-email"
  | "sso-disabled"
  | "sso-no-role"
  | "sso-recovery-account";

// Token verdicts are cached per process with the owner's role (lib/auth/authenticate.ts).
const notifyTokens = (q: Queryable) => q.query("SELECT pg_notify('crewdeck_tokens', 'users')");

/**
 * The Crewdeck user for a person the provider vouched for, created if new, with `role`.
 * An existing user (e.g. invited with a password before SSO) is matched by email.
 */
export async function provisionSsoUser(
  db: Db,
  { email, name, role }: { email: string; name: string | null; role: Role },
): Promise<{ id: string } | { refused: SsoRefusal }> {
  return db.tx(async (q) => {
    // A disabled person stays disabled: the provider vouching for them does not re-enable them.
    const { rows } = await q.query(
      `INSERT INTO users (id, email, name, role) VALUES ($1, $2, $3, $4)
       ON CONFLICT (email) DO UPDATE SET role = CASE WHEN users.disabled_at IS NULL
           THEN EXCLUDED.role ELSE users.role END,
         name = COALESCE(users.name, EXCLUDED.name)
       RETURNING id, disabled_at IS NOT NULL AS disabled`,
      [crypto.randomUUID(), email.toLowerCase(), name, role],
      IdRow.extend({ disabled: z.boolean() }),
    );
    const row = rows[0];
    if (!row) throw new Error("provisionSsoUser: no row returned");
    if (row.disabled) return { refused: "sso-disabled" as const };
    await notifyTokens(q);
    return { id: row.id };
  });
}

/** Sets the role the person's groups give now; true when it changed. */
export async function setSsoRole(db: Db, id: string, role: Role): Promise<boolean> {
  return db.tx(async (q) => {
    const { rows } = await q.query(
      "UPDATE users SET role = $2 WHERE id = $1 AND role <> $2 RETURNING id",
      [id, role],
    );
    if (rows.length) await notifyTokens(q);
    return rows.length > 0;
  });
}
