import { describe, expect, it } from "vitest";
import { TrackerError } from "@/lib/tracker/errors";
import { compileFilter, type FieldMap } from "@/lib/tracker/filter";

// A filter formula's size is the caller's to choose, and its SQL costs what it holds: past 10
// groups of 10 conditions, 100 values in a list, or 200 characters in a value it is a 422 that
// names the part that is too big, before any SQL is made.
const FIELDS: FieldMap = { title: { type: "string", sql: "i.title" } };
const cond = (value: unknown, operator = "$stringContains") => ({
  field: "title",
  operator,
  value,
});
const formula = (groups: unknown[][]) => ({
  operator: "OR",
  conditions: groups.map((conditions) => ({ operator: "AND", conditions })),
});
const times = <T>(n: number, f: () => T) => Array.from({ length: n }, f);

function refusal(raw: unknown): TrackerError {
  try {
    compileFilter(raw, FIELDS, [], "issueFilterFormula");
  } catch (err) {
    if (err instanceof TrackerError) return err;
    throw err;
  }
  throw new Error("the formula was accepted");
}

describe("a filter formula's limits", () => {
  it("accepts a formula exactly at every limit", () => {
    const params: unknown[] = [];
    const full = formula(
      times(10, () => [
        ...times(9, () => cond("x".repeat(200))),
        cond(
          times(100, () => "y".repeat(200)),
          "$stringIsIn",
        ),
      ]),
    );
    expect(compileFilter(full, FIELDS, params)).toContain("ILIKE");
    expect(params).toHaveLength(100);
  });

  it.each([
    ["groups", formula(times(11, () => [cond("x")])), "issueFilterFormula.conditions", "10 groups"],
    [
      "conditions in a group",
      formula([[cond("x")], times(11, () => cond("x"))]),
      "issueFilterFormula.conditions.1.conditions",
      "10 conditions",
    ],
    [
      "values in a list",
      formula([
        [
          cond(
            times(101, () => "v"),
            "$stringIsIn",
          ),
        ],
      ]),
      "issueFilterFormula.conditions.0.conditions.0.value",
      "100 values",
    ],
    [
      "characters in a value",
      formula([[cond("x"), cond("x".repeat(201))]]),
      "issueFilterFormula.conditions.0.conditions.1.value",
      "200 characters",
    ],
    [
      "characters in a listed value",
      formula([[cond(["a", "b".repeat(201)], "$stringIsNotIn")]]),
      "issueFilterFormula.conditions.0.conditions.0.value.1",
      "200 characters",
    ],
  ])("refuses too many %s with a 422 naming the field", (_, raw, field, limit) => {
    const err = refusal(raw);
    expect(err.status).toBe(422);
    expect(err.code).toBe("invalid_filter");
    expect(err.message).toContain(`${field}:`);
    expect(err.message).toContain(limit);
  });

  it("refuses 30,000 conditions without compiling them", () => {
    const err = refusal(formula([times(30_000, () => cond("x"))]));
    expect(err.status).toBe(422);
    expect(err.message.length).toBeLessThan(500);
  });
});
