import "server-only";
import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import type { ReviewStats } from "@/lib/contract/runs";
import { REVIEW_CLOCK_NAME } from "@/lib/crew/review-policy";
import { jsonArray } from "@/lib/db/columns";
import type { Db } from "@/lib/db/types";
import {
  assembleReviewStats,
  type DecisionPart,
  type RequestPart,
  type ReviewerRow,
  type TaskPart,
  type TimeoutPart,
} from "./review-figures";

// The review events of the window's runs, each with the times analytics need: for a request, the
// first action a person took on that task attempt after it (a claim, a vote or a decision); for a
// decision, the request it answers. Window functions over (run, task, attempt) keep this one pass.
// A decision a deadline took for nobody (the review clock's name, or "system") is not a person's:
// it shows only as a timeout. `effect` is absent on runs from before quorums: approve → approved, reject → sent_back.
const NOBODY = `('system', '${REVIEW_CLOCK_NAME}')`;
const EVENTS = `
  ev AS (
    SELECT r.crew, v.execution_id, v.seq, v.type, v.task_id, v.attempt, v.data, v.created_at,
           (v.type = 'review_submitted' AND coalesce(v.data->>'reviewer', '') NOT IN ${NOBODY})
             OR (v.type = 'review_claimed' AND coalesce(v.data->>'by', '') NOT IN ${NOBODY}) AS human
      FROM runs r JOIN execution_events v ON v.execution_id = r.id
     WHERE v.type IN ('review_requested', 'review_submitted', 'review_claimed', 'review_timed_out')
       AND v.task_id IS NOT NULL
  ),
  timed AS (
    SELECT ev.*,
           min(created_at) FILTER (WHERE human)
             OVER (w ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING) AS next_human_at,
           max(created_at) FILTER (WHERE type = 'review_requested')
             OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS requested_at
      FROM ev
    WINDOW w AS (PARTITION BY execution_id, task_id, attempt ORDER BY seq)
  ),
  requests AS (
    SELECT crew, EXTRACT(EPOCH FROM next_human_at - created_at)::float AS wait
      FROM timed WHERE type = 'review_requested'
  ),
  decisions AS (
    SELECT crew, execution_id, task_id,
           coalesce(data->>'reviewer', 'unknown') AS reviewer,
           data->>'decision' = 'approve' AS approve,
           coalesce(data->>'effect', CASE data->>'decision' WHEN 'approve' THEN 'approved'
                                                            WHEN 'reject' THEN 'sent_back' END) AS effect,
           EXTRACT(EPOCH FROM created_at - requested_at)::float AS decide
      FROM timed WHERE type = 'review_submitted' AND human
  ),
  tasks AS (
    SELECT crew, count(*) FILTER (WHERE effect = 'sent_back')::int AS rounds
      FROM decisions GROUP BY crew, execution_id, task_id
  )`;

// Each part once for the whole window and once per crew (GROUPING SETS), as a JSON array.
const PARTS = `
  SELECT
    (SELECT coalesce(jsonb_agg(g), '[]'::jsonb) FROM (
       SELECT crew, grouping(crew) = 1 AS whole, count(*)::int AS requests,
              count(wait)::int AS answered,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY wait)::float AS p50,
              percentile_cont(0.95) WITHIN GROUP (ORDER BY wait)::float AS p95
         FROM requests GROUP BY GROUPING SETS ((), (crew))) g) AS requests,
    (SELECT coalesce(jsonb_agg(g), '[]'::jsonb) FROM (
       SELECT crew, grouping(crew) = 1 AS whole,
              count(*) FILTER (WHERE effect = 'approved')::int AS approved,
              count(*) FILTER (WHERE effect = 'sent_back')::int AS sent_back
         FROM decisions GROUP BY GROUPING SETS ((), (crew))) g) AS decisions,
    (SELECT coalesce(jsonb_agg(g), '[]'::jsonb) FROM (
       SELECT crew, grouping(crew) = 1 AS whole, count(*)::int AS reviewed,
              avg(rounds)::float AS rounds_avg, coalesce(max(rounds), 0)::int AS rounds_max
         FROM tasks GROUP BY GROUPING SETS ((), (crew))) g) AS tasks,
    (SELECT coalesce(jsonb_agg(g), '[]'::jsonb) FROM (
       SELECT crew, coalesce(data->>'action', 'unknown') AS action, count(*)::int AS n
         FROM ev WHERE type = 'review_timed_out' GROUP BY 1, 2) g) AS timeouts,
    (SELECT coalesce(jsonb_agg(g ORDER BY g.decisions DESC, g.reviewer), '[]'::jsonb) FROM (
       SELECT reviewer, count(*)::int AS decisions,
              count(*) FILTER (WHERE approve)::int AS approvals,
              count(*) FILTER (WHERE effect = 'sent_back')::int AS sent_back,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY decide)::float AS p50
         FROM decisions GROUP BY reviewer
        ORDER BY decisions DESC, reviewer LIMIT 50) g) AS reviewers`;

// Each part is a JSON array the statement builds (jsonb_agg), read as built.
const PartsRow = z.object({
  requests: jsonArray<RequestPart>(),
  decisions: jsonArray<DecisionPart>(),
  tasks: jsonArray<TaskPart>(),
  timeouts: jsonArray<TimeoutPart>(),
  reviewers: jsonArray<ReviewerRow>(),
});

/**
 * How reviews went in the overview's window (runs created in the last `days` days, today
 * included), over the runs the principal may see — a user token only its own, as the overview's
 * other figures: time to first review, approval rate, send-back rounds and timeouts, by crew and
 * by reviewer.
 */
export async function reviewAnalytics({
  db,
  principal,
  days = 14,
  crew,
}: {
  db: Db;
  principal: Principal;
  days?: number;
  crew?: string;
}): Promise<ReviewStats> {
  const params: unknown[] = [days - 1];
  const where = ["e.created_at >= current_date - $1::int"];
  if (principal.kind === "user") {
    params.push(principal.userId);
    where.push(`e.owner_user_id = $${params.length}`);
  }
  if (crew) {
    params.push(crew);
    where.push(`e.crew = $${params.length}`);
  }
  const { rows } = await db.query(
    `WITH runs AS (SELECT e.id, e.crew FROM executions e WHERE ${where.join(" AND ")}),
     ${EVENTS}
     ${PARTS}`,
    params,
    PartsRow,
  );
  const r = rows[0];
  return assembleReviewStats({
    days,
    crew: crew ?? null,
    requests: r?.requests ?? [],
    decisions: r?.decisions ?? [],
    tasks: r?.tasks ?? [],
    timeouts: r?.timeouts ?? [],
    reviewers: r?.reviewers ?? [],
  });
}
