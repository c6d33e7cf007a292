import { z } from "zod";
import type { Db, RowSchema } from "./types";

// Settings saved from the dashboard, one JSON value per key (secrets in them are sealed first).
const Saved = z.object({ value: z.unknown() });

/** The saved value of `key`, read by `schema` (what the writer of `key` saves). */
export async function readSetting<S extends RowSchema>(
  db: Db,
  key: string,
  schema: S,
): Promise<z.output<S> | undefined> {
  const { rows } = await db.query("SELECT value FROM settings WHERE key = $1", [key], Saved);
  return rows[0] && schema.parse(rows[0].value);
}

export async function writeSetting(db: Db, key: string, value: unknown) {
  await db.query(
    `INSERT INTO settings (key, value) VALUES ($1, $2::jsonb)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
    [key, JSON.stringify(value)],
  );
}
