import type { ReviewFigures, ReviewStats } from "@/lib/contract/runs";

// Pure assembly of the review analytics: the SQL (review-analytics.ts) aggregates each part
// once over GROUPING SETS ((), (crew)); this merges the parts into totals and one row per crew.

/** One part's row: `crew` null with `whole` true is the window's total. */
type Part<T> = T & { crew: string | null; whole: boolean };

export type RequestPart = Part<{
  requests: number;
  answered: number;
  p50: number | null;
  p95: number | null;
}>;
export type DecisionPart = Part<{ approved: number; sent_back: number }>;
export type TaskPart = Part<{ reviewed: number; rounds_avg: number | null; rounds_max: number }>;
export type TimeoutPart = { crew: string; action: string; n: number };
export type ReviewerRow = {
  reviewer: string;
  decisions: number;
  approvals: number;
  sent_back: number;
  p50: number | null;
};

/** n / d rounded to 4 places (as the overview's failure rate); null when d is 0. */
export function ratio(n: number, d: number): number | null {
  return d > 0 ? Math.round((n / d) * 10_000) / 10_000 : null;
}

const round2 = (x: number | null) => (x === null ? null : Math.round(x * 100) / 100);

export function emptyFigures(): ReviewFigures {
  return {
    requests: 0,
    answered: 0,
    first_review_p50_seconds: null,
    first_review_p95_seconds: null,
    decisions: 0,
    approved: 0,
    sent_back: 0,
    approval_rate: null,
    reviewed_tasks: 0,
    send_back_rounds_avg: null,
    send_back_rounds_max: 0,
    timeouts: 0,
    timeouts_by_action: {},
  };
}

function figuresFor(
  crew: string | null,
  parts: {
    requests: RequestPart[];
    decisions: DecisionPart[];
    tasks: TaskPart[];
    timeouts: TimeoutPart[];
  },
): ReviewFigures {
  const pick = <T extends { crew: string | null; whole: boolean }>(rows: T[]) =>
    rows.find((r) => (crew === null ? r.whole : !r.whole && r.crew === crew));
  const f = emptyFigures();
  const q = pick(parts.requests);
  if (q) {
    f.requests = q.requests;
    f.answered = q.answered;
    f.first_review_p50_seconds = round2(q.p50);
    f.first_review_p95_seconds = round2(q.p95);
  }
  const d = pick(parts.decisions);
  if (d) {
    f.approved = d.approved;
    f.sent_back = d.sent_back;
    f.decisions = d.approved + d.sent_back;
    f.approval_rate = ratio(d.approved, f.decisions);
  }
  const t = pick(parts.tasks);
  if (t) {
    f.reviewed_tasks = t.reviewed;
    f.send_back_rounds_avg = t.reviewed ? round2(t.rounds_avg) : null;
    f.send_back_rounds_max = t.rounds_max;
  }
  for (const o of parts.timeouts) {
    if (crew !== null && o.crew !== crew) continue;
    f.timeouts += o.n;
    f.timeouts_by_action[o.action] = (f.timeouts_by_action[o.action] ?? 0) + o.n;
  }
  return f;
}

/** The API's answer from the SQL's parts: totals, crews by most requests, reviewers as given. */
export function assembleReviewStats({
  days,
  crew,
  requests,
  decisions,
  tasks,
  timeouts,
  reviewers,
}: {
  days: number;
  crew: string | null;
  requests: RequestPart[];
  decisions: DecisionPart[];
  tasks: TaskPart[];
  timeouts: TimeoutPart[];
  reviewers: ReviewerRow[];
}): ReviewStats {
  const parts = { requests, decisions, tasks, timeouts };
  const crews = new Set<string>();
  for (const rows of [requests, decisions, tasks])
    for (const r of rows) if (!r.whole && r.crew !== null) crews.add(r.crew);
  for (const o of timeouts) crews.add(o.crew);
  const byCrew = [...crews]
    .map((name) => ({ crew: name, ...figuresFor(name, parts) }))
    .sort((a, b) => b.requests - a.requests || a.crew.localeCompare(b.crew));
  return {
    window_days: days,
    crew,
    totals: figuresFor(null, parts),
    by_crew: byCrew,
    by_reviewer: reviewers.map((r) => ({
      reviewer: r.reviewer,
      decisions: r.decisions,
      approvals: r.approvals,
      sent_back: r.sent_back,
      approval_rate: ratio(r.approvals, r.decisions),
      decide_p50_seconds: round2(r.p50),
    })),
  };
}
