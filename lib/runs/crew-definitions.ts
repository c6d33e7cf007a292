import { z } from "zod";
import type { CrewDef } from "@/lib/crew/schema";
import { jsonObject } from "@/lib/db/columns";
import type { Db, Queryable } from "@/lib/db/types";
import { sha256Hex } from "@/lib/ledger/entry";

// A crew definition is stored once in crew_definitions, under the SHA-256 of its JSON, and each
// local run names it (executions.crew_def) instead of keeping a copy of its own (migration 21).
// Stored definitions are never changed or deleted — a changed crew is a new key — so what a
// process has stored or read stays true, in every process, for as long as it runs.

/** The key a definition is stored under: the SHA-256 of its JSON, in hex. */
export const definitionKey = (json: string) => sha256Hex(json);

// Per database handle: the definitions this process has stored there (or is storing).
const stored = new WeakMap<Db, Map<string, Promise<void>>>();

function storedIn(db: Db) {
  let known = stored.get(db);
  if (!known) {
    known = new Map();
    stored.set(db, known);
  }
  return known;
}

/**
 * Stores the definition unless this process already has: the first kickoff of a definition
 * writes it (with any other process doing the same, one row wins), every later one writes only
 * its key. A failed write is forgotten, so the next kickoff tries again.
 */
export function storeDefinition(db: Db, key: string, json: string): Promise<void> {
  const mine = storedIn(db);
  let written = mine.get(key);
  if (!written) {
    written = db
      .query(
        "INSERT INTO crew_definitions (key, definition) VALUES ($1, $2::jsonb) ON CONFLICT (key) DO NOTHING",
        [key, json],
      )
      .then(() => undefined);
    written.catch(() => mine.delete(key));
    mine.set(key, written);
  }
  return written;
}

// Definitions read back, by key, shared by every row that names them: frozen, so no reader can
// change what the others see. Bounded; the oldest read goes first.
const MAX_READ = 256;
const read = new Map<string, CrewDef>();

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

type StoredRow = { crew_snapshot: CrewDef | null; crew_def?: string | null };
const DefinitionRow = z.object({ key: z.string(), definition: jsonObject<CrewDef>() });

/**
 * Fills in `crew_snapshot` of rows read from executions: from the row's own copy (remote runs,
 * runs from before migration 21) or the definition it names, read once per process.
 */
export async function withCrews<T extends StoredRow>(
  q: Queryable,
  rows: T[],
): Promise<(T & { crew_snapshot: CrewDef })[]> {
  const missing = [
    ...new Set(
      rows.flatMap((r) =>
        !r.crew_snapshot && r.crew_def && !read.has(r.crew_def) ? [r.crew_def] : [],
      ),
    ),
  ];
  if (missing.length) {
    const { rows: found } = await q.query(
      "SELECT key, definition FROM crew_definitions WHERE key = ANY($1::text[])",
      [missing],
      DefinitionRow,
    );
    for (const d of found) {
      read.set(d.key, deepFreeze(d.definition));
      const oldest = read.keys().next();
      if (read.size > MAX_READ && !oldest.done) read.delete(oldest.value);
    }
  }
  return rows.map((r) => {
    if (r.crew_snapshot) return { ...r, crew_snapshot: r.crew_snapshot };
    const crew = r.crew_def ? read.get(r.crew_def) : undefined;
    // Unreachable while definitions are never deleted; say so rather than fail later on a null.
    if (!crew) throw new Error(`execution's crew definition ${r.crew_def ?? "(none)"} is missing`);
    return { ...r, crew_snapshot: crew };
  });
}
