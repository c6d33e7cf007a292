import { ownerOf, type Principal, principalName } from "@/lib/auth/principal";
import type { VariantChanges } from "@/lib/contract/datasets";
import type { Db } from "@/lib/db/types";
import type { datasetRows } from "./datasets";

// What an experiment writes when it is made: the experiment, its variants as pinned, and one
// pending cell per variant × row × repeat.

type DatasetRow = Awaited<ReturnType<typeof datasetRows>>[number];

/** A variant with its definition pinned as the experiment will run it. */
export type PinnedVariant = {
  name: string;
  variant_id: string | null;
  changes: VariantChanges;
  definition: string;
  key: string;
};

/** One cell per repeat × row × variant, numbered in that order from 1. */
export function cellsOf(
  rows: Omit<DatasetRow, "source_execution_id">[],
  variants: string[],
  repeats: number,
) {
  const cells: {
    n: number;
    variant: string;
    row: number;
    repeat: number;
    inputs: unknown;
    expected: unknown;
  }[] = [];
  for (let repeat = 1; repeat <= repeats; repeat++)
    for (const r of rows)
      for (const variant of variants)
        cells.push({
          n: cells.length + 1,
          variant,
          row: r.position,
          repeat,
          inputs: r.inputs,
          expected: r.expected,
        });
  return cells;
}

/** The experiment, its pinned variants and its pending cells, in one transaction. */
export async function insertExperiment(
  db: Db,
  e: {
    id: string;
    crew: string;
    name: string;
    datasetId: string;
    spec: Record<string, unknown>;
    principal: Principal;
    pinned: PinnedVariant[];
    cells: ReturnType<typeof cellsOf>;
  },
) {
  await db.tx(async (q) => {
    await q.query(
      `INSERT INTO experiments (id, crew, name, dataset_id, spec, status, owner_user_id, token_id, created_by)
       VALUES ($1, $2, $3, $4, $5::jsonb, 'running', $6, $7, $8)`,
      [
        e.id,
        e.crew,
        e.name,
        e.datasetId,
        JSON.stringify(e.spec),
        ownerOf(e.principal),
        e.principal.kind === "session" ? null : e.principal.tokenId,
        principalName(e.principal),
      ],
    );
    await q.query(
      `INSERT INTO experiment_variants (experiment_id, position, name, variant_id, changes, definition_key, definition)
       SELECT $1, v.position, v.name, v.variant_id, v.changes, v.key, v.definition
         FROM jsonb_to_recordset($2::jsonb)
              AS v(position int, name text, variant_id uuid, changes jsonb, key text, definition text)`,
      [e.id, JSON.stringify(e.pinned.map((v, i) => ({ ...v, position: i + 1 })))],
    );
    await q.query(
      `INSERT INTO experiment_cells (experiment_id, n, variant, row_position, repeat, inputs, expected, status)
       SELECT $1, c.n, c.variant, c.row, c.repeat, c.inputs, c.expected, 'pending'
         FROM jsonb_to_recordset($2::jsonb) AS c(n int, variant text, row int, repeat int, inputs jsonb, expected jsonb)`,
      [e.id, JSON.stringify(e.cells)],
    );
    await q.query("SELECT pg_notify('crewdeck_experiments', $1)", [e.id]);
  });
}
