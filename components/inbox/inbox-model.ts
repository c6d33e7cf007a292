import type { Scope } from "./scopes";
import { type Decision, reviewKey } from "./types";

type Ref = { execution_id: string; task_id: string };

/** The review `?run=` (and `&task=`) names; with none named, the longest waiting; else null. */
export function selectedReview<R extends Ref>(
  reviews: R[],
  run: string | null,
  task: string | null,
): R | null {
  return (
    reviews.find((r) => r.execution_id === run && (task === null || r.task_id === task)) ??
    (run ? undefined : reviews[0]) ??
    null
  );
}

/** The URL of a review: the scope when not the default, the run, the task when the run has more. */
export function inboxHref(reviews: Ref[], r: Ref | null, scope: Scope, defaultScope: Scope) {
  const q = new URLSearchParams();
  if (scope !== defaultScope) q.set("scope", scope);
  if (r) {
    q.set("run", r.execution_id);
    if (reviews.filter((x) => x.execution_id === r.execution_id).length > 1)
      q.set("task", r.task_id);
  }
  const query = q.toString();
  return query ? `/inbox?${query}` : "/inbox";
}

/** The notices with `d` in place of any earlier one about the same run, last. */
export const withDecision = (ds: Decision[], d: Decision) => [
  ...ds.filter((x) => x.runId !== d.runId),
  d,
];

/** As a mail client does after archiving: the next waiting review, or the one before. */
export function nextAfter<R extends Ref>(reviews: R[], review: Ref) {
  const at = reviews.findIndex((r) => reviewKey(r) === reviewKey(review));
  return reviews[at + 1] ?? reviews[at - 1];
}
