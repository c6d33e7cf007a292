import crypto from "node:crypto";
import { z } from "zod";
import {
  ownerOf,
  type Principal,
  principalName,
  type OwnerScope as Scope,
} from "@/lib/auth/principal";
import { DATASET_MAX_ROWS, type DatasetSchema, type RowSchema } from "@/lib/contract/datasets";
import { jsonObject, num, time } from "@/lib/db/columns";
import type { Db, Queryable } from "@/lib/db/types";
import { errors } from "@/lib/errors";
import type { CheckedRow } from "./dataset-rows";

type Dataset = z.infer<typeof DatasetSchema>;
type Row = z.infer<typeof RowSchema>;

// A user token reaches only its owner's datasets (as with runs); others are the same 404 as none.
const OWNED = "($2::uuid IS NULL OR d.owner_user_id = $2::uuid)";
const MAX_DATASETS_PER_CREW = 200;
/**
 * All of a dataset's rows, as JSON: it is read whole when it is shown and when an experiment
 * starts over it, so it stays a size one request may read.
 */
export const DATASET_MAX_CHARS = 16 * 1024 * 1024;

const DatasetRow = z.object({
  id: z.string(),
  crew: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  row_count: num,
  created_by: z.string(),
  created_at: time,
  updated_at: time,
});
const StoredRow = z.object({
  position: num,
  inputs: jsonObject<Record<string, unknown>>(),
  expected: jsonObject<Record<string, string>>(),
  source_execution_id: z.string().nullable(),
});

const view = (r: z.infer<typeof DatasetRow>): Dataset => ({
  ...r,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

const SELECT = `SELECT d.id, d.crew, d.name, d.description, d.created_by, d.created_at, d.updated_at,
       (SELECT count(*)::int FROM dataset_rows r WHERE r.dataset_id = d.id) AS row_count
  FROM datasets d`;

export async function listDatasets(db: Db, scope: Scope): Promise<Dataset[]> {
  const { rows } = await db.query(
    `${SELECT} WHERE d.crew = $1 AND ${OWNED} ORDER BY d.created_at DESC`,
    [scope.crew, scope.owner],
    DatasetRow,
  );
  return rows.map(view);
}

/** A dataset by id (or, for clients and YAML files, by its name), or 404. */
export async function getDataset(q: Queryable, scope: Scope, idOrName: string): Promise<Dataset> {
  const byId = z.uuid().safeParse(idOrName).success;
  const { rows } = await q.query(
    `${SELECT} WHERE d.crew = $1 AND ${OWNED} AND ${byId ? "d.id = $3::uuid" : "d.name = $3"}`,
    [scope.crew, scope.owner, idOrName],
    DatasetRow,
  );
  const row = rows[0];
  if (!row) throw errors.notFound(`No dataset '${idOrName}' for crew '${scope.crew}'.`);
  return view(row);
}

export async function datasetRows(q: Queryable, id: string): Promise<Row[]> {
  const { rows } = await q.query(
    "SELECT position, inputs, expected, source_execution_id FROM dataset_rows WHERE dataset_id = $1 ORDER BY position",
    [id],
    StoredRow,
  );
  return rows;
}

export async function createDataset(
  db: Db,
  crew: string,
  principal: Principal,
  body: { name: string; description?: string },
  rows: (CheckedRow & { source?: string })[],
): Promise<Dataset> {
  const id = crypto.randomUUID();
  await db.tx(async (q) => {
    const { rows: count } = await q.query(
      "SELECT count(*)::int AS n FROM datasets WHERE crew = $1",
      [crew],
      z.object({ n: num }),
    );
    if ((count[0]?.n ?? 0) >= MAX_DATASETS_PER_CREW)
      throw errors.conflict(
        `Crew '${crew}' has ${MAX_DATASETS_PER_CREW} datasets: delete one first.`,
      );
    const inserted = await q.query(
      `INSERT INTO datasets (id, crew, name, description, owner_user_id, created_by)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (crew, name) DO NOTHING RETURNING id`,
      [id, crew, body.name, body.description ?? null, ownerOf(principal), principalName(principal)],
    );
    if (!inserted.rowCount)
      throw errors.conflict(`Crew '${crew}' already has a dataset named '${body.name}'.`);
    await insertRows(q, id, rows);
  });
  return getDataset(db, { crew, owner: null }, id);
}

/**
 * Appends rows after the last, all or none. The dataset's row is locked first, so two uploads at
 * once take turns and never claim the same positions.
 */
export async function appendRows(
  db: Db,
  scope: Scope,
  id: string,
  rows: (CheckedRow & { source?: string })[],
): Promise<number[]> {
  return db.tx(async (q) => {
    const { rows: found } = await q.query(
      `SELECT d.id FROM datasets d WHERE d.id = $3 AND d.crew = $1 AND ${OWNED} FOR UPDATE`,
      [scope.crew, scope.owner, id],
    );
    if (!found.length) throw errors.notFound(`No dataset '${id}' for crew '${scope.crew}'.`);
    const positions = await insertRows(q, id, rows);
    await q.query("UPDATE datasets SET updated_at = now() WHERE id = $1", [id]);
    return positions;
  });
}

async function insertRows(
  q: Queryable,
  id: string,
  rows: (CheckedRow & { source?: string })[],
): Promise<number[]> {
  if (!rows.length) return [];
  const { rows: last } = await q.query(
    `SELECT count(*)::int AS n, coalesce(max(position), 0)::int AS top,
            coalesce(sum(length(inputs::text) + length(expected::text)), 0)::int AS chars
       FROM dataset_rows WHERE dataset_id = $1`,
    [id],
    z.object({ n: num, top: num, chars: num }),
  );
  const { n = 0, top = 0, chars = 0 } = last[0] ?? {};
  if (n + rows.length > DATASET_MAX_ROWS)
    throw errors.unprocessable(
      `A dataset holds at most ${DATASET_MAX_ROWS} rows: this one has ${n}, and ${rows.length} more were given.`,
    );
  const adding = rows.reduce(
    (sum, r) => sum + JSON.stringify(r.inputs).length + JSON.stringify(r.expected).length,
    0,
  );
  if (chars + adding > DATASET_MAX_CHARS)
    throw errors.unprocessable(
      `A dataset holds at most ${DATASET_MAX_CHARS} characters of rows (as JSON): this one has ${chars}, and ${adding} more were given.`,
    );
  const positions = rows.map((_, i) => top + i + 1);
  await q.query(
    `INSERT INTO dataset_rows (dataset_id, position, inputs, expected, source_execution_id)
     SELECT $1, r.position, r.inputs, r.expected, r.source
       FROM jsonb_to_recordset($2::jsonb) AS r(position int, inputs jsonb, expected jsonb, source uuid)`,
    [
      id,
      JSON.stringify(
        rows.map((r, i) => ({
          position: positions[i],
          inputs: r.inputs,
          expected: r.expected,
          source: r.source ?? null,
        })),
      ),
    ],
  );
  return positions;
}

export async function deleteDataset(db: Db, scope: Scope, id: string) {
  const { rowCount } = await db.query(
    `DELETE FROM datasets d WHERE d.id = $3 AND d.crew = $1 AND ${OWNED}`,
    [scope.crew, scope.owner, id],
  );
  if (!rowCount) throw errors.notFound(`No dataset '${id}' for crew '${scope.crew}'.`);
}

export async function deleteRow(db: Db, scope: Scope, id: string, position: number) {
  await getDataset(db, scope, id);
  const { rowCount } = await db.query(
    "DELETE FROM dataset_rows WHERE dataset_id = $1 AND position = $2",
    [id, position],
  );
  if (!rowCount) throw errors.notFound(`Dataset '${id}' has no row ${position}.`);
}
