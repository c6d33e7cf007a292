import { TrackerError } from "../errors";
import type { CheckedCondition } from "../filter";

// The DNF formula as Linear's IssueFilter / TeamFilter: {or: [{and: [...]}]}.
const COMPARATOR: Record<string, string> = {
  $stringExactlyMatches: "eq",
  $stringDoesNotExactlyMatch: "neq",
  $stringIsIn: "in",
  $stringIsNotIn: "nin",
  $stringStartsWith: "startsWith",
  $stringDoesNotStartWith: "notStartsWith",
  $stringEndsWith: "endsWith",
  $stringDoesNotEndWith: "notEndsWith",
  $stringContains: "containsIgnoreCase",
  $stringDoesNotContain: "notContainsIgnoreCase",
  $stringGreaterThan: "gt",
  $stringLessThan: "lt",
  $numberGreaterThanOrEqualTo: "gte",
  $numberLessThanOrEqualTo: "lte",
  $numberGreaterThan: "gt",
  $numberLessThan: "lt",
  $dateTimeAfter: "gt",
  $dateTimeBefore: "lt",
};

// Operators reach here checked (validateFormula): each has its comparator.
function comparatorOf(operator: string): string {
  const comparator = COMPARATOR[operator];
  if (!comparator) throw new TrackerError("invalid_filter", `Unknown operator '${operator}'.`);
  return comparator;
}

export function toLinearFilter(groups: CheckedCondition[][]) {
  return {
    or: groups.map((group) => ({
      and: group.map(({ field, operator, value }) => {
        const comparator = { [comparatorOf(operator)]: value };
        // `project` filters on the project's name, as the embedded tracker does.
        return field === "project" ? { project: { name: comparator } } : { [field]: comparator };
      }),
    })),
  };
}
