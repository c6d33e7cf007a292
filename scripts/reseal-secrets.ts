// `npm run secrets:reseal` — seals every secret saved in the database again under the key that
// seals now (the first in ENCRYPTION_KEY): the step between adding a new key and dropping the old
// one, or after the upgrade that moved sealing off AUTH_SECRET. Safe to run again: values already
// under the current key are left alone. Each value is rewritten only if it has not changed since
// it was read, so a running server (PostgreSQL) may keep writing meanwhile.

import { z } from "zod";
import { currentKeyId, isCurrent, looksSealed, seal, unseal } from "@/lib/config/encryption";
import { env } from "@/lib/config/env";
import { json } from "@/lib/db/columns";
import { readLiveLock } from "@/lib/db/embedded-lock";
import type { Db } from "@/lib/db/types";
import { errorMessage } from "@/lib/errors";

// Columns that hold one sealed value each; settings hold JSON with sealed strings inside.
const COLUMNS: [table: string, key: string, column: string][] = [
  ["deployments", "id", "token_sealed"],
  ["deployments", "id", "webhook_secret_sealed"],
  ["oauth_states", "state_hash", "verifier_sealed"],
];

type Counts = { resealed: number; current: number; unreadable: string[] };

function resealValue(value: string, where: string, counts: Counts): string {
  if (isCurrent(value)) {
    counts.current++;
    return value;
  }
  try {
    const again = seal(unseal(value));
    counts.resealed++;
    return again;
  } catch (err) {
    counts.unreadable.push(`${where}: ${errorMessage(err)}`);
    return value;
  }
}

/** Every string in a JSON value that is a sealed secret, resealed (walked without recursion). */
function resealJson(root: unknown, where: string, counts: Counts): unknown {
  const box = { root };
  const stack: { parent: Record<string | number, unknown>; key: string | number }[] = [
    { parent: box as Record<string, unknown>, key: "root" },
  ];
  while (stack.length) {
    const { parent, key } = stack.pop() as (typeof stack)[number];
    const v = parent[key];
    if (typeof v === "string" && looksSealed(v)) parent[key] = resealValue(v, where, counts);
    else if (v && typeof v === "object")
      for (const k of Object.keys(v)) stack.push({ parent: v as Record<string, unknown>, key: k });
  }
  return box.root;
}

export async function resealAll(db: Db): Promise<Counts> {
  const counts: Counts = { resealed: 0, current: 0, unreadable: [] };
  for (const [table, key, column] of COLUMNS) {
    const { rows } = await db.query(
      `SELECT ${key}::text AS k, ${column} AS v FROM ${table} WHERE ${column} IS NOT NULL`,
      [],
      z.object({ k: z.string(), v: z.string() }),
    );
    for (const row of rows) {
      const again = resealValue(row.v, `${table}.${column} (${row.k})`, counts);
      if (again !== row.v)
        await db.query(
          `UPDATE ${table} SET ${column} = $1 WHERE ${key}::text = $2 AND ${column} = $3`,
          [again, row.k, row.v],
        );
    }
  }
  const { rows } = await db.query(
    "SELECT key, value, value::text AS raw FROM settings",
    [],
    z.object({ key: z.string(), value: json, raw: z.string() }),
  );
  for (const row of rows) {
    const before = counts.resealed;
    const value = resealJson(row.value, `settings.${row.key}`, counts);
    if (counts.resealed !== before)
      await db.query("UPDATE settings SET value = $1::jsonb WHERE key = $2 AND value::text = $3", [
        JSON.stringify(value),
        row.key,
        row.raw,
      ]);
  }
  return counts;
}

async function main() {
  const e = env();
  if (!e.DATABASE_URL && readLiveLock(e.DATA_DIR)) {
    console.error(
      "A server holds the embedded database in DATA_DIR: stop it, run this, start it again.",
    );
    process.exit(1);
  }
  const { getDb } = await import("@/lib/db");
  const db = await getDb();
  try {
    const counts = await resealAll(db);
    console.log(
      `Sealing key ${currentKeyId()}: resealed ${counts.resealed} secret(s), ${counts.current} already under it.`,
    );
    if (counts.unreadable.length) {
      console.error(
        `${counts.unreadable.length} secret(s) could not be unsealed with any key held (left as they are):\n  ${counts.unreadable.join("\n  ")}`,
      );
      process.exitCode = 2;
    }
  } finally {
    await db.close();
  }
}

await main();
