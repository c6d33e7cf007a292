import { z } from "zod";
import { isOneOf } from "@/lib/util/one-of";
import { TrackerError } from "./errors";

// The filter formula: OR of AND groups of {field, operator, value}, compiled to parameterised SQL.
const STRING_OPS = [
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
const NUMBER_OPS = [
  "$numberGreaterThanOrEqualTo",
  "$numberLessThanOrEqualTo",
  "$numberGreaterThan",
  "$numberLessThan",
] as const;
const DATE_OPS = ["$dateTimeAfter", "$dateTimeBefore"] as const;
const OPERATORS = [...STRING_OPS, ...NUMBER_OPS, ...DATE_OPS] as const;

export type FieldType = "string" | "number" | "date";
export type FieldMap = Record<string, { type: FieldType; sql: string }>;

/** A formula's size is the caller's: its SQL costs what it holds, so each part has a ceiling. */
const FILTER_LIMITS = { groups: 10, conditions: 10, values: 100, chars: 200 } as const;

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
    `Disjunctive normal form: {"operator":"OR","conditions":[{"operator":"AND","conditions":[{"field","operator","value"}]}]}; at most ${FILTER_LIMITS.groups} groups of ${FILTER_LIMITS.conditions} conditions, ${FILTER_LIMITS.values} values in a list, ${FILTER_LIMITS.chars} characters in a value`,
  );

// Values reach here checked (checkValue): a string operator's value is a string.
const escapeLike = (s: unknown) => String(s).replace(/[\\%_]/g, (c) => `\\${c}`);

export type CheckedCondition = { field: string; operator: string; value: unknown; type: FieldType };

/**
 * Checks a formula's shape, fields and operator types (and each value against its operator),
 * whichever backend will run it. Every failure is an invalid_filter saying what would be right.
 */
export function validateFormula(
  raw: unknown,
  types: Record<string, FieldType>,
  formulaName = "filter",
): CheckedCondition[][] {
  const parsed = FilterFormulaSchema.safeParse(raw);
  if (!parsed.success) {
    throw new TrackerError(
      "invalid_filter",
      `${formulaName} must be OR of AND groups: {"operator":"OR","conditions":[{"operator":"AND","conditions":[{"field":"title","operator":"$stringContains","value":"bug"}]}]} (${parsed.error.issues[0]?.path.join(".") || "formula"}: ${parsed.error.issues[0]?.message})`,
    );
  }
  checkSize(parsed.data, formulaName);
  return parsed.data.conditions.map((group) =>
    group.conditions.map(({ field, operator, value }) => {
      // Own fields only: `constructor` is a field name, not Object.prototype's.
      const type = Object.hasOwn(types, field) ? types[field] : undefined;
      if (!type)
        throw new TrackerError(
          "invalid_filter",
          `Unknown filter field '${field}'; use one of: ${Object.keys(types).join(", ")}.`,
        );
      const family = isOneOf(STRING_OPS, operator)
        ? "string"
        : isOneOf(NUMBER_OPS, operator)
          ? "number"
          : isOneOf(DATE_OPS, operator)
            ? "date"
            : null;
      if (!family)
        throw new TrackerError(
          "invalid_filter",
          `Unknown operator '${operator}'; use one of: ${OPERATORS.join(", ")}.`,
        );
      if (family !== type) {
        throw new TrackerError(
          "invalid_filter",
          `Operator ${operator} works on ${family} fields, but '${field}' is a ${type}; use a $${type === "date" ? "dateTime" : type}… operator.`,
        );
      }
      return { field, operator, value: checkValue(operator, value, field), type };
    }),
  );
}

/** Refuses (422, naming the part) a formula past FILTER_LIMITS, before any of it is compiled. */
function checkSize(formula: z.infer<typeof FilterFormulaSchema>, name: string) {
  const { groups, conditions, values, chars } = FILTER_LIMITS;
  const refuse = (path: string, what: string) => {
    throw new TrackerError("invalid_filter", `${name}.${path}: at most ${what}.`, 422);
  };
  const text = (v: unknown, path: string) => {
    if (typeof v === "string" && v.length > chars) refuse(path, `${chars} characters in a value`);
  };
  if (formula.conditions.length > groups) refuse("conditions", `${groups} groups`);
  formula.conditions.forEach((group, g) => {
    if (group.conditions.length > conditions)
      refuse(`conditions.${g}.conditions`, `${conditions} conditions in a group`);
    group.conditions.forEach(({ value }, c) => {
      const path = `conditions.${g}.conditions.${c}.value`;
      if (!Array.isArray(value)) text(value, path);
      else if (value.length > values) refuse(path, `${values} values in a list`);
      else for (const [i, v] of value.entries()) text(v, `${path}.${i}`);
    });
  });
}

function checkValue(op: string, value: unknown, field: string): unknown {
  const need: (ok: boolean, what: string) => asserts ok = (ok, what) => {
    if (!ok)
      throw new TrackerError("invalid_filter", `Operator ${op} on '${field}' needs ${what}.`);
  };
  if (op === "$stringIsIn" || op === "$stringIsNotIn") {
    need(
      Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "string"),
      "a non-empty array of strings",
    );
    return value;
  }
  if (op.startsWith("$string")) {
    need(typeof value === "string", "a string value");
    return value;
  }
  if (op.startsWith("$number")) {
    const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
    need(typeof n === "number" && Number.isFinite(n), "a number value");
    return n;
  }
  need(
    typeof value === "string" && !Number.isNaN(Date.parse(value)),
    "an ISO 8601 date-time string",
  );
  return new Date(value).toISOString();
}

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
  const types = Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f.type]));
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  return validateFormula(raw, types, formulaName)
    .map(
      (group) =>
        `(${group.map((c) => condition(columnOf(fields, c.field), c.operator, c.value, p)).join(" AND ")})`,
    )
    .join(" OR ");
}

// validateFormula has checked every field against `fields`.
function columnOf(fields: FieldMap, field: string): string {
  const f = fields[field];
  if (!f) throw new TrackerError("invalid_filter", `Unknown filter field '${field}'.`);
  return f.sql;
}

function condition(col: string, op: string, value: unknown, p: (v: unknown) => string): string {
  switch (op) {
    case "$stringIsIn":
      // A JSON array parameter works the same on PGlite and node-postgres.
      return `${col} IN (SELECT jsonb_array_elements_text(${p(JSON.stringify(value))}::jsonb))`;
    case "$stringIsNotIn":
      return `${col} NOT IN (SELECT jsonb_array_elements_text(${p(JSON.stringify(value))}::jsonb))`;
    case "$stringExactlyMatches":
      return `${col} = ${p(value)}`;
    case "$stringDoesNotExactlyMatch":
      return `${col} IS DISTINCT FROM ${p(value)}`;
    case "$stringStartsWith":
      return `${col} LIKE ${p(`${escapeLike(value)}%`)}`;
    case "$stringDoesNotStartWith":
      return `${col} NOT LIKE ${p(`${escapeLike(value)}%`)}`;
    case "$stringEndsWith":
      return `${col} LIKE ${p(`%${escapeLike(value)}`)}`;
    case "$stringDoesNotEndWith":
      return `${col} NOT LIKE ${p(`%${escapeLike(value)}`)}`;
    case "$stringContains":
      return `${col} ILIKE ${p(`%${escapeLike(value)}%`)}`;
    case "$stringDoesNotContain":
      return `${col} NOT ILIKE ${p(`%${escapeLike(value)}%`)}`;
    case "$stringGreaterThan":
      return `${col} > ${p(value)}`;
    case "$stringLessThan":
      return `${col} < ${p(value)}`;
    case "$numberGreaterThanOrEqualTo":
      return `${col} >= ${p(value)}`;
    case "$numberLessThanOrEqualTo":
      return `${col} <= ${p(value)}`;
    case "$numberGreaterThan":
      return `${col} > ${p(value)}`;
    case "$numberLessThan":
      return `${col} < ${p(value)}`;
    case "$dateTimeAfter":
      return `${col} > ${p(value)}::timestamptz`;
    default:
      return `${col} < ${p(value)}::timestamptz`;
  }
}
