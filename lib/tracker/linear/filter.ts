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

export function toLinearFilter(groups: CheckedCondition[][]) {
  return {
    or: groups.map((group) => ({
      and: group.map(({ field, operator, value }) => {
        const comparator = { [COMPARATOR[operator] as string]: value };
        // `project` filters on the project's name, as the embedded tracker does.
        return field === "project" ? { project: { name: comparator } } : { [field]: comparator };
      }),
    })),
  };
}
