import crypto from "node:crypto";
import { z } from "zod";
import { CountRow, num } from "@/lib/db/columns";
import type { Db, Queryable } from "@/lib/db/types";
import { AppError, errors, zodFieldErrors } from "@/lib/errors";
import { hashPassword, PASSWORD_MIN_LENGTH } from "./passwords";
import { ROLES } from "./roles";
import { clearSetupCodes, setupCodeMatches } from "./setup-code";

const Person = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role: z.enum(ROLES),
});
/** A row read with COLUMNS. */
export const UserRow = Person.extend({
  /** Names a crew's review block may assign to (besides the roles). */
  teams: z.array(z.string()),
  has_password: z.boolean(),
  disabled: z.boolean(),
  created_at: z.string(),
});
export type User = z.infer<typeof UserRow>;

export const NewUserSchema = z
  .object({
    email: z.email("must be an email address").transform((e) => e.toLowerCase()),
    name: z.string().trim().max(200).optional(),
    password: z
      .string()
      .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
      .max(500),
    role: z.enum(ROLES).default("viewer"),
  })
  .meta({ id: "NewUser" });
export type NewUser = z.input<typeof NewUserSchema>;

/** The columns a `User` is read from. */
export const COLUMNS =
  "id, email, name, role, teams, password_hash IS NOT NULL AS has_password, disabled_at IS NOT NULL AS disabled, created_at::text";

export async function countUsersWithPassword(db: Queryable) {
  const { rows } = await db.query(
    "SELECT count(*)::int AS n FROM users WHERE password_hash IS NOT NULL",
    [],
    CountRow,
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
  const { rows } = await q.query(
    `INSERT INTO users (id, email, name, role, password_hash) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (email) DO UPDATE SET password_hash = EXCLUDED.password_hash, role = EXCLUDED.role,
       name = COALESCE(EXCLUDED.name, users.name)
     WHERE users.password_hash IS NULL
     RETURNING ${COLUMNS}`,
    [crypto.randomUUID(), u.email, u.name ?? null, u.role, hash],
    UserRow,
  );
  return rows[0];
}

// Held (PostgreSQL) while the first administrator is created, so that two web instances — or two
// requests — cannot both see "nobody yet" and both create one.
const FIRST_ADMIN_LOCK = 7283192;

const wrongSetupCode = () =>
  new AppError(
    "wrong-setup-code",
    403,
    "Wrong setup code. Use the code printed on the server console when Crewdeck started.",
  );
const alreadySetUp = () =>
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
  const { rows } = await db.query(
    // A disabled person is refused like an unknown one (authorize then fails the same way).
    "SELECT id, email, name, role, password_hash FROM users WHERE email = $1 AND disabled_at IS NULL",
    [email.toLowerCase()],
    Person.extend({ password_hash: z.string().nullable() }),
  );
  return rows[0];
}

/** The version a new session cookie carries; undefined when the person cannot sign in. */
export async function sessionVersionOf(db: Db, id: string): Promise<number | undefined> {
  const { rows } = await db.query(
    "SELECT session_version FROM users WHERE id = $1 AND disabled_at IS NULL",
    [id],
    z.object({ session_version: num }),
  );
  return rows[0]?.session_version;
}

/**
 * The person behind a session cookie, if that cookie is still good: the user exists, is not
 * disabled, and has not signed out (or been reset) since the cookie was issued.
 */
export async function findSessionUser(db: Db, id: string, version: number) {
  const { rows } = await db.query(
    `SELECT id, email, name, role FROM users
      WHERE id = $1 AND session_version = $2 AND disabled_at IS NULL`,
    [id, version],
    Person,
  );
  return rows[0];
}

/** Ends every session of the person (all their cookies, on every device). */
export async function endSessions(db: Db, id: string) {
  await db.query("UPDATE users SET session_version = session_version + 1 WHERE id = $1", [id]);
}

export async function getUser(db: Db, id: string): Promise<User | undefined> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [id], UserRow);
  return rows[0];
}

export async function listUsers(db: Db): Promise<User[]> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM users ORDER BY created_at`, [], UserRow);
  return rows;
}

const TeamsSchema = z
  .array(
    z
      .string()
      .trim()
      .min(1, "a team name must not be empty")
      .max(60)
      .regex(/^[^@,]+$/, "a team name has no '@' or ','"),
  )
  .max(20, "at most 20 teams")
  .transform((t) => [...new Set(t)]);

export const UserChangeSchema = z
  .strictObject({
    role: z.enum(ROLES).optional(),
    teams: TeamsSchema.optional(),
    disabled: z.boolean().optional(),
    password: z
      .string()
      .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
      .max(500)
      .optional(),
  })
  .refine(
    (c) =>
      c.role !== undefined ||
      c.teams !== undefined ||
      c.disabled !== undefined ||
      c.password !== undefined,
    { message: "send at least one of role, teams, disabled, password" },
  )
  .meta({ id: "UserChange" });
export type UserChange = z.infer<typeof UserChangeSchema>;

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
