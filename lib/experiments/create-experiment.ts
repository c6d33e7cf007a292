import crypto from "node:crypto";
import { z } from "zod";
import { type OwnerScope, ownerOf, type Principal, principalName } from "@/lib/auth/principal";
import { can } from "@/lib/auth/roles";
import type { VariantChanges } from "@/lib/contract/datasets";
import type { ExperimentCreate, Scorer } from "@/lib/contract/experiments";
import type { CrewDef } from "@/lib/crew/schema";
import type { Db } from "@/lib/db/types";
import { AppError, errors } from "@/lib/errors";
import { parseModelRef } from "@/lib/llm/model-ref";
import { crewJson } from "@/lib/runs/create-execution";
import { checkPattern } from "@/lib/util/linear-regex";
import { checkRows } from "./dataset-rows";
import { datasetRows, getDataset } from "./datasets";
import { applyChanges, unattended } from "./overlay";
import { cellMetrics } from "./scorers";
import { getVariant } from "./variants";

// An experiment is made whole or not at all: its variants' definitions pinned (as they are now),
// every row checked against every variant, every scorer checked, and one cell per variant × row
// × repeat written pending. Cells are numbered repeat by repeat, row by row, variant by variant,
// so an experiment stopped early (budget) has compared its variants on the same rows.

type Problem = { path: string; message: string };
const Problems = z.array(z.object({ path: z.string(), message: z.string() }));
const MAX_CELLS = 10_000;

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

async function checkScorers(crew: CrewDef, scorers: Scorer[], variants: string[]) {
  const problems: Problem[] = [];
  const tasks = crew.tasks.map((t) => t.id);
  for (const [i, s] of scorers.entries()) {
    const at = `scorers.${i}`;
    if (s.task && !tasks.includes(s.task))
      problems.push({
        path: `${at}.task`,
        message: `no task '${s.task}' (tasks: ${tasks.join(", ")})`,
      });
    if (s.type === "regex") {
      // Compiled on the linear-time engine's worker thread, as it will run.
      const wrong = await checkPattern(s.pattern, s.flags);
      if (wrong) problems.push({ path: `${at}.pattern`, message: wrong });
    }
    if (s.type === "judge" || s.type === "pairwise") {
      const { error } = parseModelRef(s.model);
      if (error) problems.push({ path: `${at}.model`, message: error });
    }
    if (s.type === "pairwise")
      for (const v of s.variants)
        if (!variants.includes(v))
          problems.push({
            path: `${at}.variants`,
            message: `'${v}' is not one of the experiment's variants`,
          });
  }
  return problems;
}

/** applyChanges, its refusal naming the field in the request (`variants.1.changes.…`). */
function changesAt(crew: CrewDef, changes: VariantChanges, at: string) {
  try {
    return applyChanges(crew, changes);
  } catch (err) {
    const listed = err instanceof AppError ? Problems.safeParse(err.details.errors) : undefined;
    if (!listed?.success) throw err;
    throw unfit(listed.data.map((p) => ({ ...p, path: `${at}.${p.path}` })));
  }
}

function unfit(problems: Problem[]) {
  return errors.unprocessable(
    `The experiment cannot run: ${problems
      .slice(0, 10)
      .map((p) => `${p.path}: ${p.message}`)
      .join("; ")}${problems.length > 10 ? `; and ${problems.length - 10} more` : ""}.`,
    { errors: problems },
  );
}

/**
 * Skipping reviews and tool approvals lets side effects through that a reviewer would gate:
 * only someone who may review (and so could approve them anyway) may run an experiment so.
 */
function assertMayRun(principal: Principal, reviews: ExperimentCreate["reviews"]) {
  if (reviews === "skip" && !can(principal, "review"))
    throw new AppError(
      "forbidden",
      403,
      'An experiment that skips reviews and tool approvals needs the reviewer role: set "reviews": "wait" to run it with them, as any run.',
    );
}

async function rowsOf(db: Db, scope: OwnerScope, name: string) {
  const dataset = await getDataset(db, scope, name);
  const rows = await datasetRows(db, dataset.id);
  if (!rows.length)
    throw unfit([{ path: "dataset", message: `dataset '${dataset.name}' has no rows` }]);
  return { dataset, rows };
}

/** What the request gets wrong beyond its scorers: the baseline, the gates, the size. */
export function planProblems({
  baseline,
  names,
  scorers,
  gates,
  cells,
}: {
  baseline: string;
  names: string[];
  scorers: Scorer[];
  gates: ExperimentCreate["gates"];
  cells: number;
}): Problem[] {
  const problems: Problem[] = [];
  if (!names.includes(baseline))
    problems.push({
      path: "baseline",
      message: `'${baseline}' is not one of the variants (${names.join(", ")})`,
    });
  const metrics = cellMetrics(scorers).map((m) => m.name);
  gates.forEach((g, i) => {
    if (!metrics.includes(g.metric))
      problems.push({
        path: `gates.${i}.metric`,
        message: `no metric '${g.metric}' (metrics: ${metrics.join(", ")})`,
      });
  });
  if (cells > MAX_CELLS)
    problems.push({
      path: "repeats",
      message: `${cells} runs is more than ${MAX_CELLS}: fewer rows, variants or repeats`,
    });
  return problems;
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
async function insertExperiment(
  db: Db,
  e: {
    id: string;
    crew: string;
    name: string;
    datasetId: string;
    spec: Record<string, unknown>;
    principal: Principal;
    pinned: (Resolved & { definition: string; key: string })[];
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
