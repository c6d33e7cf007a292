import type { z } from "zod";
import type { OwnerScope, Principal } from "@/lib/auth/principal";
import { type DatasetCreateSchema, RowsUploadSchema } from "@/lib/contract/datasets";
import type { CrewDef } from "@/lib/crew/schema";
import type { Db } from "@/lib/db/types";
import { errors } from "@/lib/errors";
import { parseInput } from "@/lib/http/parse-input";
import { parseJsonText, readTextBody } from "@/lib/http/read-json";
import {
  checkRows,
  type OfferedRow,
  type RowError,
  rowsFromCsv,
  rowsFromJsonLines,
} from "./dataset-rows";
import { appendRows, createDataset } from "./datasets";

const UPLOAD_LIMIT_BYTES = 5 * 1024 * 1024;

/**
 * The rows of an upload, by its content type: text/csv, JSON Lines (application/jsonl,
 * application/x-ndjson) or JSON `{rows, skip_invalid}`. `?skip_invalid=true` for the first two.
 */
export async function offeredRows(
  request: Request,
): Promise<{ rows: OfferedRow[]; skip: boolean }> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  const text = await readTextBody(request, UPLOAD_LIMIT_BYTES);
  const skip = new URL(request.url).searchParams.get("skip_invalid") === "true";
  let rows: OfferedRow[];
  if (type === "text/csv") rows = rowsFromCsv(text);
  else if (
    type === "application/jsonl" ||
    type === "application/x-ndjson" ||
    type === "application/jsonlines"
  )
    rows = rowsFromJsonLines(text);
  else {
    const body = parseInput(RowsUploadSchema, parseJsonText(text), "body");
    return {
      rows: body.rows.map((r, i) => ({ row: i + 1, inputs: r.inputs, expected: r.expected })),
      skip: body.skip_invalid,
    };
  }
  // At most DATASET_MAX_ROWS: each reader stops at the first row past it.
  if (!rows.length) throw errors.unprocessable("The upload holds no rows.");
  return { rows, skip };
}

/**
 * Adds the rows that fit the crew. A bad row fails the whole upload (422, every problem listed)
 * unless `skip` is set: then the good rows are added and the bad ones reported as skipped.
 */
export async function addRows(
  db: Db,
  crew: CrewDef,
  scope: OwnerScope,
  id: string,
  offered: (OfferedRow & { source?: string })[],
  skip: boolean,
  extra: RowError[] = [],
) {
  const { valid, invalid } = checkRows(crew, offered);
  const problems = [...extra, ...invalid];
  if (problems.length && !skip) throw rowsRefused(crew, problems, offered.length + extra.length);
  const sources = new Map(offered.map((o) => [o.row, o.source]));
  const positions = await appendRows(
    db,
    scope,
    id,
    valid.map((v) => ({ ...v, source: sources.get(v.row) })),
  );
  return { added: positions.length, positions, skipped: problems };
}

/** A new dataset with its first rows: all of them fit, or nothing is created (422). */
export async function createDatasetWithRows(
  db: Db,
  crew: CrewDef,
  principal: Principal,
  body: z.infer<typeof DatasetCreateSchema>,
) {
  const offered = (body.rows ?? []).map((r, i) => ({
    row: i + 1,
    inputs: r.inputs,
    expected: r.expected,
  }));
  const { valid, invalid } = checkRows(crew, offered);
  if (invalid.length) throw rowsRefused(crew, invalid, offered.length);
  return createDataset(db, crew.slug, principal, body, valid);
}

function rowsRefused(crew: CrewDef, problems: RowError[], total: number) {
  const list = problems
    .slice(0, 5)
    .map((p) => `Row ${p.row}${p.line ? ` (line ${p.line})` : ""}: ${p.path} ${p.message}`)
    .join("; ");
  return errors.unprocessable(
    `${new Set(problems.map((p) => p.row)).size} of ${total} rows do not fit crew '${crew.slug}'; nothing was added. ${list}${problems.length > 5 ? "; …" : "."}`,
    { errors: problems },
  );
}
