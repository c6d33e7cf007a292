import type { z } from "zod";
import { DATASET_MAX_ROWS, type RowErrorSchema } from "@/lib/contract/datasets";
import type { CrewDef } from "@/lib/crew/schema";
import { checkInputs, inputSpecsOf } from "@/lib/crew/validate-inputs";
import { AppError, errors } from "@/lib/errors";
import { badCharacter, parseJsonText } from "@/lib/http/read-json";
import { CsvError, CsvLimitError, type CsvRecord, parseCsv } from "./csv";

// Rows offered to a dataset, from JSON, CSV or JSON Lines, checked as kickoff checks inputs: each
// bad row is reported with its number (and line), its field and the same words kickoff uses.

export type RowError = z.infer<typeof RowErrorSchema>;
export type OfferedRow = {
  row: number;
  line?: number;
  inputs: Record<string, unknown>;
  expected: Record<string, unknown>;
};
export type CheckedRow = { inputs: Record<string, unknown>; expected: Record<string, string> };

const EXPECTED = "expected.";

/** A row's inputs and expected outputs (a CSV's columns) at most: far more than a crew has. */
const ROW_MAX_FIELDS = 200;
/**
 * A row's inputs and expected outputs, as JSON: a kickoff's body is at most 1 MiB, but a row is
 * copied into every cell of every experiment over it, so it is held to a quarter of that.
 */
export const ROW_MAX_CHARS = 256 * 1024;

const tooManyRows = () =>
  errors.unprocessable(`At most ${DATASET_MAX_ROWS} rows at once; this upload has more.`);

/** CSV: a header of input names, and `expected.<task>` columns for expected outputs. */
export function rowsFromCsv(text: string): OfferedRow[] {
  let records: CsvRecord[];
  try {
    // Stopped at the first row or column past the limits, before any row is built.
    records = parseCsv(text, { records: DATASET_MAX_ROWS + 1, fields: ROW_MAX_FIELDS });
  } catch (err) {
    if (err instanceof CsvLimitError && err.limit === "records") throw tooManyRows();
    if (err instanceof CsvLimitError)
      throw errors.unprocessable(
        `CSV: line ${err.line} has more than ${ROW_MAX_FIELDS} columns; at most ${ROW_MAX_FIELDS}.`,
      );
    if (err instanceof CsvError) throw errors.badRequest(`The CSV is malformed: ${err.message}.`);
    throw err;
  }
  const [header, ...body] = records;
  if (!header) throw errors.badRequest("The CSV is empty: its first line names the inputs.");
  const names = header.fields.map((f) => f.trim());
  // One search of the whole text; a field at a time only when it has something to find.
  if (text.includes("\0") || !text.isWellFormed()) refuseBadCharacters(header, body, names);
  return body.map((r, i) => {
    const row: OfferedRow = { row: i + 1, line: r.line, inputs: {}, expected: {} };
    names.forEach((name, j) => {
      const value = r.fields[j] ?? "";
      if (name.startsWith(EXPECTED)) {
        if (value !== "") row.expected[name.slice(EXPECTED.length)] = value;
      } else if (name) row.inputs[name] = value;
    });
    if (r.fields.length > names.length)
      row.inputs[`(column ${names.length + 1})`] = r.fields.slice(names.length).join(",");
    return row;
  });
}

/** NUL or a lone surrogate, which every JSON body refuses too (read-json.ts), named by cell. */
function refuseBadCharacters(header: CsvRecord, body: CsvRecord[], names: string[]) {
  for (const [j, name] of header.fields.entries()) {
    const why = badCharacter(name);
    if (why)
      throw new AppError(
        "bad-character",
        400,
        `CSV: the header (line ${header.line}) has a bad character in column ${j + 1}: the name ${why}.`,
      );
  }
  for (const [i, r] of body.entries())
    for (const [j, value] of r.fields.entries()) {
      const why = badCharacter(value);
      if (!why) continue;
      const name = names[j];
      const path = name?.startsWith(EXPECTED) ? name : `inputs.${name || `(column ${j + 1})`}`;
      const at = { row: i + 1, line: r.line, path, message: `the string ${why}` };
      throw new AppError(
        "bad-character",
        400,
        `CSV: row ${at.row} (line ${at.line}) has a bad character in column ${name ? `'${name}'` : j + 1}: ${at.message}.`,
        { errors: [at] },
      );
    }
}

/** JSON Lines: one `{"inputs": {…}, "expected": {…}}` per line, or a line of the inputs alone. */
export function rowsFromJsonLines(text: string): OfferedRow[] {
  const rows: OfferedRow[] = [];
  // Line by line, not split at once: an upload past the row limit stops at its first row over.
  for (let from = 0, line = 1; from <= text.length; line++) {
    const newline = text.indexOf("\n", from);
    const end = newline < 0 ? text.length : newline;
    const raw = text.slice(from, text.charCodeAt(end - 1) === 0x0d ? end - 1 : end);
    from = end + 1;
    if (!raw.trim()) continue;
    if (rows.length === DATASET_MAX_ROWS) throw tooManyRows();
    const at = { row: rows.length + 1, line };
    // As every JSON body is read: at most 64 deep, no NUL or lone surrogate (400 naming where).
    const value = parseJsonText(raw, `JSON Lines: row ${at.row} (line ${line})`, at);
    if (!isObject(value))
      throw errors.badRequest(`JSON Lines: row ${at.row} (line ${line}) must be a JSON object.`);
    const structured = isObject(value.inputs);
    const row = {
      ...at,
      inputs: isObject(value.inputs) ? value.inputs : value,
      expected: structured && isObject(value.expected) ? value.expected : {},
    };
    if (Object.keys(row.inputs).length + Object.keys(row.expected).length > ROW_MAX_FIELDS)
      throw errors.unprocessable(
        `JSON Lines: row ${at.row} (line ${line}) has more than ${ROW_MAX_FIELDS} inputs and expected outputs; at most ${ROW_MAX_FIELDS}.`,
      );
    rows.push(row);
  }
  return rows;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === "object" && !Array.isArray(v);

/** Each row checked against the crew's inputs and tasks: the good rows typed, the bad explained. */
export function checkRows(crew: CrewDef, offered: OfferedRow[]) {
  const specs = inputSpecsOf(crew);
  const tasks = new Map(
    crew.tasks.flatMap((t) => [[t.id, t.id] as const, [t.name, t.id] as const]),
  );
  const valid: (CheckedRow & { row: number })[] = [];
  const invalid: RowError[] = [];
  for (const o of offered) {
    const at = { row: o.row, ...(o.line ? { line: o.line } : {}) };
    const problems: RowError[] = [];
    const checked = checkInputs(specs, o.inputs);
    for (const e of [...checked.malformed, ...checked.invalid]) problems.push({ ...at, ...e });
    for (const name of checked.missing)
      problems.push({ ...at, path: `inputs.${name}`, message: "is required" });
    for (const name of Object.keys(o.inputs))
      if (name.startsWith("(column"))
        problems.push({ ...at, path: "inputs", message: `${name} has no header` });
    const expected: Record<string, string> = {};
    for (const [key, text] of Object.entries(o.expected)) {
      const id = tasks.get(key);
      if (!id)
        problems.push({
          ...at,
          path: `expected.${key}`,
          message: `no task '${key}' in this crew (tasks: ${crew.tasks.map((t) => t.id).join(", ")})`,
        });
      else if (typeof text !== "string")
        problems.push({ ...at, path: `expected.${key}`, message: "must be text" });
      else expected[id] = text;
    }
    if (problems.length) {
      invalid.push(...problems);
      continue;
    }
    // What the row says, typed; defaults stay the crew's, filled in when a run starts.
    const inputs = Object.fromEntries(
      Object.entries(checked.values).filter(([k]) => Object.hasOwn(o.inputs, k)),
    );
    const size = JSON.stringify(inputs).length + JSON.stringify(expected).length;
    if (size > ROW_MAX_CHARS) {
      invalid.push({
        ...at,
        path: "row",
        message: `is ${size} characters as JSON; a row holds at most ${ROW_MAX_CHARS}`,
      });
      continue;
    }
    valid.push({ row: o.row, inputs, expected });
  }
  return { valid, invalid };
}
