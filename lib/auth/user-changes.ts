import { z } from "zod";
import { num } from "@/lib/db/columns";
import type { Db, Queryable } from "@/lib/db/types";
import { AppError, errors } from "@/lib/errors";
import { hashPassword } from "./passwords";
import { COLUMNS, type User, type UserChange, UserRow } from "./users";

// An administrator's changes to a person (role, teams, disabled, password) and removing them,
// never leaving the deployment without an active administrator.

// Every change that could take away an administrator runs under this lock, so two admins
// demoting (or disabling, or removing) each other at once are serialized and the second one sees
// the first's result: the deployment is never left with nobody able to manage access.
const ADMINS_LOCK = 7283191;

async function lockUserForChange(q: Queryable, id: string, actor: string) {
  if (!z.uuid().safeParse(id).success) throw errors.notFound(`No user '${id}'.`);
  await q.query("SELECT pg_advisory_xact_lock($1)", [ADMINS_LOCK]);
  // The route checked the actor's role before waiting for the lock; an administrator demoted
  // meanwhile (by the very race this lock serializes) acts as one no longer.
  const actorIsAdmin = await q.query(
    "SELECT 1 FROM users WHERE id = $1 AND role = 'admin' AND disabled_at IS NULL",
    [actor],
  );
  if (!actorIsAdmin.rows.length) {
    throw new AppError("forbidden", 403, "You are no longer an administrator.");
  }
  const { rows } = await q.query(
    `SELECT role = 'admin' AND disabled_at IS NULL AS active_admin,
            (SELECT count(*)::int FROM users o
              WHERE o.role = 'admin' AND o.disabled_at IS NULL AND o.id <> $1) AS others
       FROM users WHERE id = $1`,
    [id],
    z.object({ active_admin: z.boolean(), others: num }),
  );
  const row = rows[0];
  if (!row) throw errors.notFound(`No user '${id}'.`);
  return {
    guardLastAdmin() {
      if (row.active_admin && row.others === 0) {
        throw errors.conflict(
          "This is the last administrator: make someone else an administrator first.",
        );
      }
    },
  };
}

// Token verdicts are cached per process (lib/auth/authenticate.ts) and carry the owner's role:
// every process forgets them when this commits.
const notifyTokens = (q: Queryable) => q.query("SELECT pg_notify('crewdeck_tokens', 'users')");

/**
 * Changes a person's role, disables or re-enables them, or resets their password — in one
 * transaction. Disabling revokes their tokens and ends their sessions; a password reset ends
 * their sessions.
 */
export async function changeUser(
  db: Db,
  { id, actor }: { id: string; actor: string },
  change: UserChange,
): Promise<User> {
  // Hash before the transaction: scrypt is slow and would hold the lock.
  const hash = change.password === undefined ? null : await hashPassword(change.password);
  return db.tx(async (q) => {
    const target = await lockUserForChange(q, id, actor);
    if ((change.role !== undefined && change.role !== "admin") || change.disabled === true) {
      target.guardLastAdmin();
    }
    const endSessions = change.disabled === true || hash !== null;
    const { rows } = await q.query(
      `UPDATE users SET
          role = COALESCE($2, role),
          teams = COALESCE($6::text[], teams),
          disabled_at = CASE WHEN $3::boolean IS NULL THEN disabled_at
                             WHEN $3::boolean THEN COALESCE(disabled_at, now()) ELSE NULL END,
          password_hash = COALESCE($4, password_hash),
          session_version = session_version + CASE WHEN $5::boolean THEN 1 ELSE 0 END
        WHERE id = $1
        RETURNING ${COLUMNS}`,
      [id, change.role ?? null, change.disabled ?? null, hash, endSessions, change.teams ?? null],
      UserRow,
    );
    // Locked by lockUserForChange: the row is there.
    const user = rows[0];
    if (!user) throw errors.notFound(`No user '${id}'.`);
    if (change.disabled === true) {
      await q.query(
        "UPDATE api_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL",
        [id],
      );
    }
    await notifyTokens(q);
    return user;
  });
}

/**
 * Removes a person for good. Their tokens and pending OAuth requests go with them (ON DELETE
 * CASCADE); their runs stay, owned by nobody (ON DELETE SET NULL), and the audit trail keeps
 * their email, which is what it records. Removing is a hard delete so the email can later be
 * given to someone new without that person inheriting anything; to keep the account for later,
 * disable it instead.
 */
export async function removeUser(db: Db, { id, actor }: { id: string; actor: string }) {
  await db.tx(async (q) => {
    const target = await lockUserForChange(q, id, actor);
    target.guardLastAdmin();
    await q.query("DELETE FROM users WHERE id = $1", [id]);
    await notifyTokens(q);
  });
}
