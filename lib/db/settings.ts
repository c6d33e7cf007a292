import type { Db } from "./types";

// Settings saved from the dashboard, one JSON value per key (secrets in them are sealed first).

export async function readSetting<T>(db: Db, key: string): Promise<T | undefined> {
  const { rows } = await db.query<{ value: T }>("SELECT value FROM settings WHERE key = $1", [key]);
  return rows[0]?.value;
}

export async function writeSetting(db: Db, key: string, value: unknown) {
  await db.query(
    `INSERT INTO settings (key, value) VALUES ($1, $2::jsonb)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
    [key, JSON.stringify(value)],
  );
}
