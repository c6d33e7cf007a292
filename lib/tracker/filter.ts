import { z } from "zod";
import { TrackerError } from "./errors";

// The filter formula: OR of AND groups of {field, operator, value}, compiled to parameterised SQL.
export const STRING_OPS = [
  "$stringExactlyMatches",
  "$stringDoesNotExactlyMatch",
  "$stringIsIn",
  "$stringIsNotIn",
  "$stringStartsWith",
  "$stringDoesNotStartWith",
  "$stringEndsWith",
  "$stringDoesNotEndWith",
  "$stringContains",
  "$stringDoesNotContain",
  "$stringGreaterThan",
  "$stringLessThan",
] as const;
export const NUMBER_OPS = [
  "$numberGreaterThanOrEqualTo",
  "$numberLessThanOrEqualTo",
  "$numberGreaterThan",
  "$numberLessThan",
] as const;
export const DATE_OPS = ["$dateTimeAfter", "$dateTimeBefore"] as const;
export const OPERATORS = [...STRING_OPS, ...NUMBER_OPS, ...DATE_OPS] as const;

export type FieldType = "string" | "number" | "date";
export type FieldMap = Record<string, { type: FieldType; sql: string }>;

const Condition = z
  .object({ field: z.string(), operator: z.string(), value: z.unknown() })
  .strict();
const Group = z
  .object({ operator: z.literal("AND"), conditions: z.array(Condition).min(1) })
  .strict();
export const FilterFormulaSchema = z
  .object({ operator: z.literal("OR"), conditions: z.array(Group).min(1) })
  .strict()
  .describe(
    'Disjunctive normal form: {"operator":"OR","conditions":[{"operator":"AND","conditions":[{"field","operator","value"}]}]}',
  );
export type FilterFormula = z.infer<typeof FilterFormulaSchema>;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * SQL for the formula, appending its values to `params`; field names map to known columns only,
 * and values are always parameters, so no input ever becomes SQL text.
 */
export function compileFilter(
  raw: unknown,
  fields: FieldMap,
  params: unknown[],
  formulaName = "filter",
): string {
  const parsed = FilterFormulaSchema.safeParse(raw);
  if (!parsed.success) {
    throw new TrackerError(
      "invalid_filter",
      `${formulaName} must be OR of AND groups: {"operator":"OR","conditions":[{"operator":"AND","conditions":[{"field":"title","operator":"$stringContains","value":"bug"}]}]} (${parsed.error.issues[0]?.path.join(".") || "formula"}: ${parsed.error.issues[0]?.message})`,
    );
  }
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const groups = parsed.data.conditions.map((group) =>
    group.conditions
      .map(({ field, operator, value }) => {
        const f = fields[field];
        if (!f)
          throw new TrackerError(
            "invalid_filter",
            `Unknown filter field '${field}'; use one of: ${Object.keys(fields).join(", ")}.`,
          );
        const family = STRING_OPS.includes(operator as never)
          ? "string"
          : NUMBER_OPS.includes(operator as never)
            ? "number"
            : DATE_OPS.includes(operator as never)
              ? "date"
              : null;
        if (!family)
          throw new TrackerError(
            "invalid_filter",
            `Unknown operator '${operator}'; use one of: ${OPERATORS.join(", ")}.`,
          );
        if (family !== f.type) {
          throw new TrackerError(
            "invalid_filter",
            `Operator ${operator} works on ${family} fields, but '${field}' is a ${f.type}; use a $${f.type === "date" ? "dateTime" : f.type}… operator.`,
          );
        }
        return condition(f.sql, operator, value, field, p);
      })
      .join(" AND "),
  );
  return groups.map((g) => `(${g})`).join(" OR ");
}

function condition(
  col: string,
  op: string,
  value: unknown,
  field: string,
  p: (v: unknown) => string,
): string {
  const need = (ok: boolean, what: string) => {
    if (!ok)
      throw new TrackerError("invalid_filter", `Operator ${op} on '${field}' needs ${what}.`);
  };
  if (op === "$stringIsIn" || op === "$stringIsNotIn") {
    need(
      Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "string"),
      "a non-empty array of strings",
    );
    // A JSON array parameter works the same on PGlite and node-postgres.
    return `${col} ${op === "$stringIsNotIn" ? "NOT IN" : "IN"} (SELECT jsonb_array_elements_text(${p(JSON.stringify(value))}::jsonb))`;
  }
  if (op.startsWith("$string")) {
    need(typeof value === "string", "a string value");
    const v = value as string;
    switch (op) {
      case "$stringExactlyMatches":
        return `${col} = ${p(v)}`;
      case "$stringDoesNotExactlyMatch":
        return `${col} IS DISTINCT FROM ${p(v)}`;
      case "$stringStartsWith":
        return `${col} LIKE ${p(`${escapeLike(v)}%`)}`;
      case "$stringDoesNotStartWith":
        return `${col} NOT LIKE ${p(`${escapeLike(v)}%`)}`;
      case "$stringEndsWith":
        return `${col} LIKE ${p(`%${escapeLike(v)}`)}`;
      case "$stringDoesNotEndWith":
        return `${col} NOT LIKE ${p(`%${escapeLike(v)}`)}`;
      case "$stringContains":
        return `${col} ILIKE ${p(`%${escapeLike(v)}%`)}`;
      case "$stringDoesNotContain":
        return `${col} NOT ILIKE ${p(`%${escapeLike(v)}%`)}`;
      case "$stringGreaterThan":
        return `${col} > ${p(v)}`;
      default:
        return `${col} < ${p(v)}`;
    }
  }
  if (op.startsWith("$number")) {
    const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
    need(typeof n === "number" && Number.isFinite(n), "a number value");
    const sym = {
      $numberGreaterThanOrEqualTo: ">=",
      $numberLessThanOrEqualTo: "<=",
      $numberGreaterThan: ">",
      $numberLessThan: "<",
    }[op];
    return `${col} ${sym} ${p(n)}`;
  }
  need(
    typeof value === "string" && !Number.isNaN(Date.parse(value)),
    "an ISO 8601 date-time string",
  );
  return `${col} ${op === "$dateTimeAfter" ? ">" : "<"} ${p(new Date(value as string).toISOString())}::timestamptz`;
}
