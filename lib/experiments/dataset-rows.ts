import type { z } from "zod";
import type { RowErrorSchema } from "@/lib/contract/datasets";
import type { CrewDef } from "@/lib/crew/schema";
import { checkInputs, inputSpecsOf } from "@/lib/crew/validate-inputs";
import { errors } from "@/lib/errors";
import { CsvError, parseCsv } from "./csv";

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

/** CSV: a header of input names, and `expected.<task>` columns for expected outputs. */
export function rowsFromCsv(text: string): OfferedRow[] {
  let records: ReturnType<typeof parseCsv>;
  try {
    records = parseCsv(text);
  } catch (err) {
    if (err instanceof CsvError) throw errors.badRequest(`The CSV is malformed: ${err.message}.`);
    throw err;
  }
  const [header, ...body] = records;
  if (!header) throw errors.badRequest("The CSV is empty: its first line names the inputs.");
  const names = header.fields.map((f) => f.trim());
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

/** JSON Lines: one `{"inputs": {…}, "expected": {…}}` per line, or a line of the inputs alone. */
export function rowsFromJsonLines(text: string): OfferedRow[] {
  const rows: OfferedRow[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (!raw.trim()) return;
    const line = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw errors.badRequest(`JSON Lines: line ${line} is not JSON.`);
    }
    if (!value || typeof value !== "object" || Array.isArray(value))
      throw errors.badRequest(`JSON Lines: line ${line} must be a JSON object.`);
    const o = value as Record<string, unknown>;
    const structured = isObject(o.inputs);
    rows.push({
      row: rows.length + 1,
      line,
      inputs: structured ? (o.inputs as Record<string, unknown>) : o,
      expected: structured && isObject(o.expected) ? (o.expected as Record<string, unknown>) : {},
    });
  });
  return rows;
}

const isObject = (v: unknown) => !!v && typeof v === "object" && !Array.isArray(v);

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
    valid.push({ row: o.row, inputs, expected });
  }
  return { valid, invalid };
}
