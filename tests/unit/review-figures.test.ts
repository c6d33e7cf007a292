import { describe, expect, it } from "vitest";
import { assembleReviewStats, emptyFigures, ratio } from "@/lib/runs/review-figures";

// The review analytics' assembly: SQL aggregates each part for the window and per crew; this
// merges them, computes the rates and fills what a crew lacks.
describe("ratio", () => {
  it.each([
    [2, 3, 0.6667],
    [0, 4, 0],
    [5, 5, 1],
    [1, 0, null],
  ])("%i / %i → %s", (n, d, want) => {
    expect(ratio(n, d)).toBe(want);
  });
});

describe("assembleReviewStats", () => {
  const base = { days: 14, crew: null, reviewers: [] };

  it("no review in the window: zero counts and null rates, no crews", () => {
    const s = assembleReviewStats({
      ...base,
      // GROUPING SETS' total row over nothing: counts of 0, percentiles null.
      requests: [{ crew: null, whole: true, requests: 0, answered: 0, p50: null, p95: null }],
      decisions: [{ crew: null, whole: true, approved: 0, sent_back: 0 }],
      tasks: [{ crew: null, whole: true, reviewed: 0, rounds_avg: null, rounds_max: 0 }],
      timeouts: [],
    });
    expect(s).toEqual({
      window_days: 14,
      crew: null,
      totals: emptyFigures(),
      by_crew: [],
      by_reviewer: [],
    });
  });

  it("merges the parts per crew, most requests first, and sums timeouts by action", () => {
    const s = assembleReviewStats({
      ...base,
      requests: [
        { crew: null, whole: true, requests: 5, answered: 4, p50: 12.3456, p95: 80 },
        { crew: "a", whole: false, requests: 2, answered: 2, p50: 3, p95: 4 },
        { crew: "b", whole: false, requests: 3, answered: 2, p50: 40, p95: 80 },
      ],
      decisions: [
        { crew: null, whole: true, approved: 3, sent_back: 1 },
        { crew: "a", whole: false, approved: 1, sent_back: 1 },
        { crew: "b", whole: false, approved: 2, sent_back: 0 },
      ],
      tasks: [
        { crew: null, whole: true, reviewed: 3, rounds_avg: 1 / 3, rounds_max: 1 },
        { crew: "a", whole: false, reviewed: 1, rounds_avg: 1, rounds_max: 1 },
        { crew: "b", whole: false, reviewed: 2, rounds_avg: 0, rounds_max: 0 },
      ],
      timeouts: [
        { crew: "b", action: "approve", n: 1 },
        { crew: "c", action: "escalate", n: 2 },
        { crew: "b", action: "escalate", n: 1 },
      ],
    });
    expect(s.totals).toMatchObject({
      requests: 5,
      first_review_p50_seconds: 12.35,
      decisions: 4,
      approval_rate: 0.75,
      reviewed_tasks: 3,
      send_back_rounds_avg: 0.33,
      send_back_rounds_max: 1,
      timeouts: 4,
      timeouts_by_action: { approve: 1, escalate: 3 },
    });
    expect(s.by_crew.map((c) => c.crew)).toEqual(["b", "a", "c"]);
    expect(s.by_crew[0]).toMatchObject({ requests: 3, approval_rate: 1, timeouts: 2 });
    expect(s.by_crew[1]).toMatchObject({ approval_rate: 0.5, send_back_rounds_avg: 1 });
    // A crew seen only through its timeouts has nothing else.
    expect(s.by_crew[2]).toEqual({
      ...emptyFigures(),
      crew: "c",
      timeouts: 2,
      timeouts_by_action: { escalate: 2 },
    });
  });

  it("a reviewer's approval rate counts their quorum votes", () => {
    const s = assembleReviewStats({
      ...base,
      requests: [],
      decisions: [],
      tasks: [],
      timeouts: [],
      reviewers: [
        { reviewer: "ana@example.com", decisions: 3, approvals: 2, sent_back: 1, p50: 1.234 },
        { reviewer: "org-token:CREW_TOKEN", decisions: 1, approvals: 0, sent_back: 1, p50: null },
      ],
    });
    expect(s.by_reviewer).toEqual([
      {
        reviewer: "ana@example.com",
        decisions: 3,
        approvals: 2,
        sent_back: 1,
        approval_rate: 0.6667,
        decide_p50_seconds: 1.23,
      },
      {
        reviewer: "org-token:CREW_TOKEN",
        decisions: 1,
        approvals: 0,
        sent_back: 1,
        approval_rate: 0,
        decide_p50_seconds: null,
      },
    ]);
    expect(s.totals).toEqual(emptyFigures());
  });
});
