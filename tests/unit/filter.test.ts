import { describe, expect, it } from "vitest";
import { TrackerError } from "@/lib/tracker/errors";
import { compileFilter, type FieldMap } from "@/lib/tracker/filter";

// The filter formula compiles to SQL whose text holds no input: values are parameters.
const FIELDS: FieldMap = {
  title: { type: "string", sql: "i.title" },
  number: { type: "number", sql: "i.number" },
  createdAt: { type: "date", sql: "i.created_at" },
};
const one = (field: string, operator: string, value: unknown) => ({
  operator: "OR",
  conditions: [{ operator: "AND", conditions: [{ field, operator, value }] }],
});

describe("compileFilter", () => {
  it.each([
    ["$stringExactlyMatches", "x", "i.title = $1", "x"],
    ["$stringDoesNotExactlyMatch", "x", "i.title IS DISTINCT FROM $1", "x"],
    ["$stringStartsWith", "a%b", "i.title LIKE $1", "a\\%b%"],
    ["$stringDoesNotStartWith", "a", "i.title NOT LIKE $1", "a%"],
    ["$stringEndsWith", "a_", "i.title LIKE $1", "%a\\_"],
    ["$stringDoesNotEndWith", "a", "i.title NOT LIKE $1", "%a"],
    ["$stringContains", "bug", "i.title ILIKE $1", "%bug%"],
    ["$stringDoesNotContain", "bug", "i.title NOT ILIKE $1", "%bug%"],
    ["$stringGreaterThan", "m", "i.title > $1", "m"],
    ["$stringLessThan", "m", "i.title < $1", "m"],
    [
      "$stringIsIn",
      ["a", "b"],
      "i.title IN (SELECT jsonb_array_elements_text($1::jsonb))",
      '["a","b"]',
    ],
    [
      "$stringIsNotIn",
      ["a"],
      "i.title NOT IN (SELECT jsonb_array_elements_text($1::jsonb))",
      '["a"]',
    ],
  ])("%s", (operator, value, sql, param) => {
    const params: unknown[] = [];
    expect(compileFilter(one("title", operator, value), FIELDS, params)).toBe(`(${sql})`);
    expect(params).toEqual([param]);
  });

  it("numbers and dates", () => {
    const params: unknown[] = [];
    const f = {
      operator: "OR",
      conditions: [
        {
          operator: "AND",
          conditions: [
            { field: "number", operator: "$numberGreaterThanOrEqualTo", value: "3" },
            { field: "number", operator: "$numberLessThan", value: 9 },
          ],
        },
        {
          operator: "AND",
          conditions: [{ field: "createdAt", operator: "$dateTimeAfter", value: "2026-01-01" }],
        },
      ],
    };
    expect(compileFilter(f, FIELDS, params)).toBe(
      "(i.number >= $1 AND i.number < $2) OR (i.created_at > $3::timestamptz)",
    );
    expect(params).toEqual([3, 9, "2026-01-01T00:00:00.000Z"]);
  });

  it("never puts input into the SQL text", () => {
    const params: unknown[] = [];
    const sql = compileFilter(
      one("title", "$stringContains", "'; DROP TABLE tracker_issues; --"),
      FIELDS,
      params,
    );
    expect(sql).not.toContain("DROP");
  });

  it.each([
    ["not OR at the top", { operator: "AND", conditions: [] }, /OR of AND/],
    ["an empty OR", { operator: "OR", conditions: [] }, /OR of AND/],
    [
      "a group that is not AND",
      { operator: "OR", conditions: [{ operator: "OR", conditions: [] }] },
      /OR of AND/,
    ],
    ["an unknown field", one("color", "$stringContains", "x"), /Unknown filter field 'color'/],
    ["an unknown operator", one("title", "$regex", "x"), /Unknown operator/],
    [
      "a string operator on a number",
      one("number", "$stringContains", "1"),
      /works on string fields, but 'number' is a number/,
    ],
    ["a number operator on a string", one("title", "$numberGreaterThan", 1), /'title' is a string/],
    [
      "a date operator on a number",
      one("number", "$dateTimeAfter", "2026-01-01"),
      /'number' is a number/,
    ],
    ["a non-number value", one("number", "$numberGreaterThan", "many"), /a number value/],
    ["a bad date", one("createdAt", "$dateTimeBefore", "yesterday"), /ISO 8601/],
    ["IsIn without an array", one("title", "$stringIsIn", "a"), /array of strings/],
  ])("refuses %s", (_label, formula, message) => {
    const run = () => compileFilter(formula, FIELDS, []);
    expect(run).toThrow(TrackerError);
    expect(run).toThrow(message);
  });
});
