import crypto from "node:crypto";
import type { OwnerScope, Principal } from "@/lib/auth/principal";
import type { VariantChanges } from "@/lib/contract/datasets";
import type { ExperimentCreate } from "@/lib/contract/experiments";
import type { CrewDef } from "@/lib/crew/schema";
import type { Db } from "@/lib/db/types";
import { crewJson } from "@/lib/runs/create-execution";
import { checkRows } from "./dataset-rows";
import { datasetRows, getDataset } from "./datasets";
import {
  assertMayRun,
  changesAt,
  checkScorers,
  type Problem,
  planProblems,
  unfit,
} from "./experiment-problems";
import { cellsOf, insertExperiment } from "./insert-experiment";
import { unattended } from "./overlay";
import { getVariant } from "./variants";

// An experiment is made whole or not at all: its variants' definitions pinned (as they are now),
// every row checked against every variant, every scorer checked, and one cell per variant × row
// × repeat written pending. Cells are numbered repeat by repeat, row by row, variant by variant,
// so an experiment stopped early (budget) has compared its variants on the same rows.

async function resolveVariants(db: Db, crew: CrewDef, refs: ExperimentCreate["variants"]) {
  const out: { name: string; variant_id: string | null; changes: VariantChanges }[] = [];
  for (const ref of refs) {
    if (typeof ref !== "string")
      out.push({ name: ref.name, variant_id: null, changes: ref.changes });
    else if (ref === "current") out.push({ name: "current", variant_id: null, changes: {} });
    else {
      const v = await getVariant(db, crew.slug, ref);
      out.push({ name: v.name, variant_id: v.id, changes: v.changes });
    }
  }
  const names = out.map((v) => v.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw unfit([{ path: "variants", message: `'${twice}' is listed twice` }]);
  return out;
}

async function rowsOf(db: Db, scope: OwnerScope, name: string) {
  const dataset = await getDataset(db, scope, name);
  const rows = await datasetRows(db, dataset.id);
  if (!rows.length)
    throw unfit([{ path: "dataset", message: `dataset '${dataset.name}' has no rows` }]);
  return { dataset, rows };
}

type Resolved = Awaited<ReturnType<typeof resolveVariants>>[number];
type DatasetRow = Awaited<ReturnType<typeof datasetRows>>[number];

/**
 * Each variant's definition pinned now (a later change to the crew's files or to a saved
 * variant changes nothing here), with every row its inputs do not fit.
 */
function pinVariants(
  crew: CrewDef,
  variants: Resolved[],
  rows: DatasetRow[],
  reviews: ExperimentCreate["reviews"],
) {
  const problems: Problem[] = [];
  const pinned = variants.map((v, i) => {
    const changed = changesAt(crew, v.changes, `variants.${i}`);
    const def = reviews === "skip" ? unattended(changed) : changed;
    const { definition, key } = crewJson(def);
    const bad = checkRows(
      def,
      rows.map((r) => ({ row: r.position, inputs: r.inputs, expected: {} })),
    ).invalid;
    for (const e of bad.slice(0, 20))
      problems.push({
        path: `dataset.rows.${e.row}.${e.path}`,
        message: `${e.message} (variant ${v.name})`,
      });
    return { ...v, definition, key };
  });
  return { pinned, problems };
}

export async function createExperiment(
  db: Db,
  crew: CrewDef,
  principal: Principal,
  scope: OwnerScope,
  body: ExperimentCreate,
): Promise<string> {
  assertMayRun(principal, body.reviews);
  const { dataset, rows } = await rowsOf(db, scope, body.dataset);
  const variants = await resolveVariants(db, crew, body.variants);
  const names = variants.map((v) => v.name);
  // The contract asks for at least one variant: the first is the baseline unless one is named.
  const baseline = body.baseline ?? names[0] ?? "";
  const problems = [
    ...(await checkScorers(crew, body.scorers, names)),
    ...planProblems({
      baseline,
      names,
      scorers: body.scorers,
      gates: body.gates,
      cells: variants.length * rows.length * body.repeats,
    }),
  ];
  if (problems.length) throw unfit(problems);
  const { pinned, problems: unfitRows } = pinVariants(crew, variants, rows, body.reviews);
  if (unfitRows.length) throw unfit(unfitRows);

  const id = crypto.randomUUID();
  const spec = {
    repeats: body.repeats,
    reviews: body.reviews,
    parallelism: body.parallelism,
    budget: body.budget ?? {},
    scorers: body.scorers,
    baseline,
    gates: body.gates,
    rows: rows.length,
  };
  const cells = cellsOf(rows, names, body.repeats);
  await insertExperiment(db, {
    id,
    crew: crew.slug,
    name: body.name,
    datasetId: dataset.id,
    spec,
    principal,
    pinned,
    cells,
  });
  return id;
}
