import crypto from "node:crypto";
import { z } from "zod";
import type { Db } from "@/lib/db/types";
import { errors } from "@/lib/http/problem";
import { hashPassword, PASSWORD_MIN_LENGTH } from "./passwords";
import { ROLES, type Role } from "./roles";

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

export async function countUsersWithPassword(db: Db) {
  const { rows } = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM users WHERE password_hash IS NOT NULL",
  );
  return rows[0]?.n ?? 0;
}

/** Creates a user who can sign in — or gives a password to one that a user token created. */
export async function createUser(db: Db, input: NewUser): Promise<User> {
  const u = NewUserSchema.parse(input);
  const hash = await hashPassword(u.password);
  const { rows } = await db.query<User>(
    `INSERT INTO users (id, email, name, role, password_hash) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (email) DO UPDATE SET password_hash = EXCLUDED.password_hash, role = EXCLUDED.role,
       name = COALESCE(EXCLUDED.name, users.name)
     WHERE users.password_hash IS NULL
     RETURNING ${COLUMNS}`,
    [crypto.randomUUID(), u.email, u.name ?? null, u.role, hash],
  );
  if (!rows[0]) throw errors.conflict(`A user with the email ${u.email} already exists.`);
  return rows[0];
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
  await createUser(db, { email, password, role: "admin", name: "Administrator" });
  return true;
}
