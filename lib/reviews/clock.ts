import { z } from "zod";
import { REVIEW_CLOCK_NAME } from "@/lib/crew/review-policy";
import { IdRow, num } from "@/lib/db/columns";
import type { Db } from "@/lib/db/types";
import { errorMessage } from "@/lib/errors";
import { reviewColumns } from "@/lib/run-model/open-reviews";
import type { OpenReview } from "@/lib/run-model/review-types";
import type { ExecutionRow, NewEvent } from "@/lib/run-model/types";
import { type Change, mutateExecution } from "@/lib/runs/execution-store";
import { stopped } from "@/lib/runs/stop-execution";
import { createNapper, napLoop } from "@/lib/util/napper";
import { approve, type Decider, sendBack } from "./decide";
import { decideToolCalls, undecidedCalls } from "./tool-calls";

const CLOCK: Decider = { name: REVIEW_CLOCK_NAME, user_id: null };

/**
 * Sends due reminders and applies passed deadlines (the task's on_timeout). Several workers may
 * run it at once: each due run is changed under its row lock and re-read there, so a reminder
 * or a deadline fires once, whoever gets to it first — and after a restart, since it is all kept
 * in the row.
 */
async function tickReviewClock(db: Db): Promise<number> {
  let fired = 0;
  // One item per transaction (a deadline may end the run); a run with more comes back round.
  for (let round = 0; round < 100; round++) {
    const { rows } = await db.query(
      "SELECT id FROM executions WHERE review_due_at <= now() ORDER BY review_due_at LIMIT 20",
      [],
      IdRow,
    );
    if (!rows.length) break;
    let changed = 0;
    for (const { id } of rows) {
      await db.tx(async (q) => {
        const res = await mutateExecution(q, { id }, (row) => fireDue(row, new Date()));
        if (res?.events.length) {
          changed++;
          // An approval or a send-back gives a worker something to run; a stop ends what runs.
          const channel = res.row.status === "cancelled" ? "crewdeck_stop" : "crewdeck_work";
          await q.query("SELECT pg_notify($1, $2)", [channel, id]);
        }
      });
    }
    fired += changed;
    if (!changed) break;
  }
  return fired;
}

/** The change for the first due item of a run (nothing when another worker already fired it). */
export function fireDue(row: ExecutionRow, now: Date): Change {
  const reviews = row.open_reviews ?? [];
  const due = (at: string | null | undefined) => !!at && Date.parse(at) <= now.getTime();
  const expired = reviews.find((r) => due(r.deadline_at));
  if (expired) return timeout(row, expired, now);
  const reminded = reviews.filter((r) => due(r.reminders_at[0]));
  if (!reminded.length) return { patch: reviewColumns(reviews, row.tasks) };
  const events: NewEvent[] = reminded.map((r) => ({
    type: "review_reminded",
    task_id: r.task_id,
    attempt: r.attempt,
    data: { assignees: r.assignees, deadline_at: r.deadline_at },
  }));
  const next = reviews.map((r) =>
    reminded.includes(r) ? { ...r, reminders_at: r.reminders_at.filter((t) => !due(t)) } : r,
  );
  return { patch: reviewColumns(next, row.tasks), events };
}

function timeout(row: ExecutionRow, review: OpenReview, now: Date): Change {
  const action = timeoutAction(row, review);
  const timedOut: NewEvent = {
    type: "review_timed_out",
    task_id: review.task_id,
    attempt: review.attempt,
    data: { action, deadline_at: review.deadline_at },
  };
  const change = timeoutChange(row, review, action, now);
  return { ...change, events: [timedOut, ...(change.events ?? [])] };
}

/** What the clock does to a review past its deadline, by the action its task names. */
function timeoutChange(
  row: ExecutionRow,
  review: OpenReview,
  action: ReturnType<typeof timeoutAction>,
  now: Date,
): Change {
  const when = `its deadline (${review.deadline_at})`;
  // Tool calls: approve runs them, send_back refuses them (the agent goes on without them).
  if (review.tool_calls && (action === "approve" || action === "send_back")) {
    const feedback =
      action === "approve"
        ? `Approved automatically: no decision before ${when}.`
        : `No reviewer approved this call before ${when}.`;
    const call_ids = undecidedCalls(review).map((c) => c.call_id);
    const decision = { approved: action === "approve", call_ids, feedback };
    return decideToolCalls(row, review, CLOCK, decision, now).change;
  }
  const flow = flowDefault(row, review.task_id);
  if (action === "approve") {
    const decision = { feedback: `Approved automatically: no decision before ${when}.`, ...flow };
    return approve(row, review, CLOCK, decision, now, { force: true }).change;
  }
  if (action === "send_back") {
    const feedback = `No reviewer decided before ${when}; check the output against the expected output and improve it.`;
    return sendBack(row, review, CLOCK, { feedback, ...flow }, now);
  }
  if (action === "stop") {
    const reason = `Stopped: task '${review.task_id}' was not reviewed before ${when}.`;
    return stopped(row, { by: CLOCK.name, reason, now });
  }
  return escalated(row, review, now);
}

/**
 * The review goes to the escalation's people, who are told (no second deadline: it now waits for
 * them).
 */
function escalated(row: ExecutionRow, review: OpenReview, now: Date): Change {
  const escalated: OpenReview = {
    ...review,
    assignees: review.escalate_to,
    claim: null,
    deadline_at: null,
    reminders_at: [],
    escalated_at: now.toISOString(),
  };
  const reviews = (row.open_reviews ?? []).map((r) => (r === review ? escalated : r));
  return {
    patch: reviewColumns(reviews, row.tasks),
    events: [
      {
        type: "review_escalated",
        task_id: review.task_id,
        attempt: review.attempt,
        data: { by: "system", from: review.assignees, to: review.escalate_to },
      },
    ],
  };
}

// A send-back past the task's max_review_rounds would loop for ever: it escalates instead.
function timeoutAction(row: ExecutionRow, review: OpenReview) {
  const action = review.on_timeout ?? "escalate";
  if (action !== "send_back") return action;
  const index = row.tasks.findIndex((t) => t.task_id === review.task_id);
  const max = row.crew_snapshot.tasks[index]?.max_review_rounds;
  const rounds = (row.tasks[index]?.reviews ?? []).filter((r) => !r.is_approve).length;
  return max !== undefined && rounds >= max ? "escalate" : action;
}

/** Runs the review clock until stopped: every `intervalMs`, and at the next due time sooner. */
export function startReviewClock({
  db,
  intervalMs,
  log = console.log,
}: {
  db: Db;
  intervalMs: number;
  log?: (msg: string) => void;
}) {
  return napLoop(createNapper(), async () => {
    try {
      await tickReviewClock(db);
      const { rows } = await db.query(
        "SELECT (extract(epoch FROM min(review_due_at) - now()) * 1000)::float8 AS ms FROM executions WHERE review_due_at IS NOT NULL",
        [],
        z.object({ ms: num.nullable() }),
      );
      const ms = rows[0]?.ms;
      if (ms !== null && ms !== undefined) return Math.min(intervalMs, Math.max(50, ms + 20));
    } catch (err) {
      log(`[review-clock] ${errorMessage(err)}`);
    }
    return intervalMs;
  });
}

/** A flow's feedback left undecided takes its default outcome (else its first), as in CrewAI. */
function flowDefault(row: ExecutionRow, taskId: string): { outcome?: string } {
  const feedback = row.crew_snapshot.flow?.methods.find((m) => m.name === taskId)?.feedback;
  const outcome = feedback?.default_outcome ?? feedback?.emit[0];
  return outcome !== undefined ? { outcome } : {};
}
