// The issues page's filter fields, as the URL carries them.
export type IssueSearch = {
  team?: string;
  q?: string;
  title?: string;
  min?: string;
  max?: string;
  project?: string;
  after?: string;
  archived?: string;
};

/** The form's fields as one AND group of the same filter formula agents send; none, undefined. */
export function formulaFrom(s: IssueSearch) {
  const conditions = [
    s.title && { field: "title", operator: "$stringContains", value: s.title },
    s.min && { field: "number", operator: "$numberGreaterThanOrEqualTo", value: s.min },
    s.max && { field: "number", operator: "$numberLessThanOrEqualTo", value: s.max },
    s.project && { field: "project", operator: "$stringContains", value: s.project },
    s.after && { field: "createdAt", operator: "$dateTimeAfter", value: s.after },
  ].filter(Boolean);
  return conditions.length
    ? { operator: "OR", conditions: [{ operator: "AND", conditions }] }
    : undefined;
}

/** Whether any filter narrows the list (the team and archived switch are not filters). */
export const isFiltered = (s: IssueSearch) =>
  Boolean(s.q || s.title || s.min || s.max || s.project || s.after);
