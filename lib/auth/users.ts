import crypto from "node:crypto";
import { z } from "zod";
import type { Db, Queryable } from "@/lib/db/types";
import { AppError, errors, zodFieldErrors } from "@/lib/http/problem";
import { hashPassword, PASSWORD_MIN_LENGTH } from "./passwords";
import { ROLES, type Role } from "./roles";
import { clearSetupCodes, setupCodeMatches } from "./setup-code";

export type User = {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  has_password: boolean;
  created_at: string;
};

export const NewUserSchema = z.object({
  email: z.email("must be an email address").transform((e) => e.toLowerCase()),
  name: z.string().trim().max(200).optional(),
  password: z
    .string()
    .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(500),
  role: z.enum(ROLES).default("viewer"),
});
export type NewUser = z.input<typeof NewUserSchema>;

const COLUMNS =
  "id, email, name, role, password_hash IS NOT NULL AS has_password, created_at::text";

export async function countUsersWithPassword(db: Queryable) {
  const { rows } = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM users WHERE password_hash IS NOT NULL",
  );
  return rows[0]?.n ?? 0;
}

/** Creates a user who can sign in — or gives a password to one that a user token created. */
export async function createUser(db: Db, input: NewUser): Promise<User> {
  const u = NewUserSchema.parse(input);
  const hash = await hashPassword(u.password);
  const user = await insertWithPassword(db, u, hash);
  if (!user) throw errors.conflict(`A user with the email ${u.email} already exists.`);
  return user;
}

// Inserts the user, or gives a password to one that a user token created; undefined when a user
// with that email can already sign in.
async function insertWithPassword(q: Queryable, u: z.output<typeof NewUserSchema>, hash: string) {
  const { rows } = await q.query<User>(
    `INSERT INTO users (id, email, name, role, password_hash) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (email) DO UPDATE SET password_hash = EXCLUDED.password_hash, role = EXCLUDED.role,
       name = COALESCE(EXCLUDED.name, users.name)
     WHERE users.password_hash IS NULL
     RETURNING ${COLUMNS}`,
    [crypto.randomUUID(), u.email, u.name ?? null, u.role, hash],
  );
  return rows[0];
}

// Held (PostgreSQL) while the first administrator is created, so that two web instances — or two
// requests — cannot both see "nobody yet" and both create one.
const FIRST_ADMIN_LOCK = 7283192;

export const wrongSetupCode = () =>
  new AppError(
    "wrong-setup-code",
    403,
    "Wrong setup code. Use the code printed on the server console when Crewdeck started.",
  );
export const alreadySetUp = () =>
  errors.conflict("Crewdeck already has an administrator: sign in instead.");

/**
 * First-run setup: creates the first administrator if and only if nobody can sign in yet and
 * `setupCode` is one the server printed (null: the caller is trusted — ADMIN_EMAIL at start).
 * Exactly one of any number of simultaneous calls succeeds; the others get 409. Invalid input is
 * 422, a wrong code 403.
 */
export async function createFirstAdmin(
  db: Db,
  input: Omit<NewUser, "role">,
  setupCode: string | null,
): Promise<User> {
  const parsed = NewUserSchema.safeParse({ ...input, role: "admin" });
  if (!parsed.success)
    throw errors.unprocessable("Invalid administrator.", { errors: zodFieldErrors(parsed.error) });
  // Cheap checks first, so a wrong code or a late caller costs no password hash.
  if ((await countUsersWithPassword(db)) > 0) throw alreadySetUp();
  if (setupCode !== null && !(await setupCodeMatches(db, setupCode))) throw wrongSetupCode();
  const hash = await hashPassword(parsed.data.password);
  return db.tx(async (q) => {
    // PGlite runs one transaction at a time, so this check-then-insert is already atomic there;
    // on PostgreSQL the advisory lock makes it so (READ COMMITTED would let two through).
    if (db.kind === "postgres")
      await q.query("SELECT pg_advisory_xact_lock($1)", [FIRST_ADMIN_LOCK]);
    if ((await countUsersWithPassword(q)) > 0) throw alreadySetUp();
    if (setupCode !== null && !(await setupCodeMatches(q, setupCode))) throw wrongSetupCode();
    const user = await insertWithPassword(q, parsed.data, hash);
    if (!user) throw alreadySetUp();
    await clearSetupCodes(q);
    return user;
  });
}

export async function findUserForSignIn(db: Db, email: string) {
  const { rows } = await db.query<{
    id: string;
    email: string;
    name: string | null;
    role: Role;
    password_hash: string | null;
  }>("SELECT id, email, name, role, password_hash FROM users WHERE email = $1", [
    email.toLowerCase(),
  ]);
  return rows[0];
}

export async function getUser(db: Db, id: string): Promise<User | undefined> {
  const { rows } = await db.query<User>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [id]);
  return rows[0];
}

export async function listUsers(db: Db): Promise<User[]> {
  const { rows } = await db.query<User>(`SELECT ${COLUMNS} FROM users ORDER BY created_at`);
  return rows;
}

export async function setRole(db: Db, { id, role }: { id: string; role: Role }) {
  const { rowCount } = await db.query("UPDATE users SET role = $2 WHERE id = $1", [id, role]);
  if (!rowCount) throw errors.notFound(`No user '${id}'.`);
}

/** ADMIN_EMAIL / ADMIN_PASSWORD: the first admin, created at start when nobody can sign in yet. */
export async function ensureBootstrapAdmin(
  db: Db,
  { email, password }: { email?: string; password?: string },
) {
  if (!email || !password) return false;
  if ((await countUsersWithPassword(db)) > 0) return false;
  try {
    await createFirstAdmin(db, { email, password, name: "Administrator" }, null);
    return true;
  } catch (err) {
    // Another instance sharing the database created it first.
    if (err instanceof AppError && err.status === 409) return false;
    throw err;
  }
}
