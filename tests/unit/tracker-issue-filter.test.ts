import { describe, expect, it } from "vitest";
import { formulaFrom, isFiltered } from "@/components/tracker/issue-filter";

// The issues page's form becomes the filter formula agents send: one AND group of the fields
// that are filled in, or no formula at all.
describe("formulaFrom", () => {
  it("sends no formula for an empty form (the team and search are not in it)", () => {
    expect(formulaFrom({ team: "ENG", q: "crash", archived: "1" })).toBeUndefined();
  });
  it("puts each filled field in one AND group, in the form's order", () => {
    expect(formulaFrom({ title: "login", max: "40", after: "2026-01-01" })).toEqual({
      operator: "OR",
      conditions: [
        {
          operator: "AND",
          conditions: [
            { field: "title", operator: "$stringContains", value: "login" },
            { field: "number", operator: "$numberLessThanOrEqualTo", value: "40" },
            { field: "createdAt", operator: "$dateTimeAfter", value: "2026-01-01" },
          ],
        },
      ],
    });
  });
});

describe("isFiltered", () => {
  it("counts the search and the fields, not the team or the archived switch", () => {
    expect(isFiltered({ team: "ENG", archived: "1" })).toBe(false);
    expect(isFiltered({ q: "x" })).toBe(true);
    expect(isFiltered({ project: "Web" })).toBe(true);
  });
});
