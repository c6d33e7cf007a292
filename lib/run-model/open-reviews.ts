import crypto from "node:crypto";
import { z } from "zod";
import { reviewPolicy } from "@/lib/crew/review-policy";
import type { TaskDef } from "@/lib/crew/schema";
import { storableText } from "@/lib/db/storable-text";
import type { Claim, OpenReview } from "./review-types";
import type { ExecutionRow, TaskState } from "./types";

/** The hash of the output as stored, and so as the reviewer sees it (NUL as ␀: storable-text). */
export const sha256 = (text: string) =>
  crypto.createHash("sha256").update(storableText(text)).digest("hex");

const later = (from: Date, seconds: number) =>
  new Date(from.getTime() + seconds * 1000).toISOString();

/**
 * The review a task's output opens, by the task's `review:` rules, beside the run's `others`
 * still open (whose wait it shares).
 */
export function openReview(
  task: TaskDef,
  attempt: number,
  output: string,
  now: Date,
  others: OpenReview[] = [],
): OpenReview {
  const policy = reviewPolicy(task.review);
  return {
    waiting_since: others[0]?.waiting_since ?? others[0]?.requested_at ?? now.toISOString(),
    task_id: task.id,
    attempt,
    output,
    agent_output: output,
    output_sha256: sha256(output),
    requested_at: now.toISOString(),
    assignees: policy.assignees,
    required_approvals: policy.required_approvals,
    approvals: [],
    claim: null,
    deadline_at: policy.deadline_seconds ? later(now, policy.deadline_seconds) : null,
    on_timeout: policy.on_timeout,
    escalate_to: policy.escalate_to,
    reminders_at: policy.reminder_seconds.map((s) => later(now, s)),
    ...(policy.response_schema ? { response_schema: policy.response_schema } : {}),
  };
}

/** What a review is of: the task's output, or tool calls its agent asked to make. */
export const reviewKind = (review: Pick<OpenReview, "tool_calls">): "output" | "tool_call" =>
  review.tool_calls ? "tool_call" : "output";

/** An open review as the API shows it (/status's pending_human_inputs, the inbox). */
export function describeReview(review: OpenReview, now: Date) {
  const claim = claimHolds(review.claim, now) ? review.claim : null;
  return {
    task_id: review.task_id,
    output: review.output,
    attempt: review.attempt,
    requested_at: review.requested_at,
    assignees: review.assignees,
    required_approvals: review.required_approvals,
    approvals: review.approvals.map((a) => ({ reviewer: a.reviewer, at: a.at })),
    claimed_by: claim?.by ?? null,
    claimed_until: claim?.until ?? null,
    deadline_at: review.deadline_at,
    on_timeout: review.deadline_at ? review.on_timeout : null,
    response_schema: review.response_schema ?? null,
    feedback: review.feedback ?? null,
    kind: reviewKind(review),
    tool_calls:
      review.tool_calls?.map((c) => ({
        call_id: c.call_id,
        tool: c.tool,
        arguments: c.arguments,
        input_schema: c.input_schema,
        source: c.source ?? null,
        server: c.server ?? null,
        writes: c.writes ?? null,
        decision: c.decision ?? null,
      })) ?? null,
  };
}

// A run's one review as runs from before open_reviews (and remote deployments') keep it; a field
// of another type is read as absent.
const PendingReview = z
  .object({
    task_id: z.string().optional().catch(undefined),
    output: z.string().optional().catch(undefined),
    attempt: z.number().optional().catch(undefined),
    requested_at: z.string().optional().catch(undefined),
  })
  .nullable();

/**
 * A run's open reviews. Runs paused before reviews were kept this way (and remote deployments'
 * runs) have only `pending_human_input`: it is their one review, open to anyone who may review.
 */
export function openReviewsOf(
  row: Pick<ExecutionRow, "open_reviews" | "pending_human_input" | "status">,
): OpenReview[] {
  if (row.open_reviews?.length) return row.open_reviews;
  const parsed = PendingReview.safeParse(row.pending_human_input);
  const p = parsed.success ? parsed.data : null;
  if (row.status !== "pending_human_input" || !p?.task_id) return [];
  const output = p.output ?? "";
  return [
    {
      task_id: p.task_id,
      attempt: p.attempt ?? 1,
      output,
      agent_output: output,
      output_sha256: sha256(output),
      requested_at: p.requested_at ?? new Date(0).toISOString(),
      assignees: [],
      required_approvals: 1,
      approvals: [],
      claim: null,
      deadline_at: null,
      on_timeout: null,
      escalate_to: [],
      reminders_at: [],
    },
  ];
}

/** Whether a claim still holds at `now`. */
export const claimHolds = (claim: Claim | null, now: Date): claim is Claim =>
  !!claim && Date.parse(claim.until) > now.getTime();

/**
 * The columns that follow from the open reviews: the list in task order, `pending_human_input` as
 * the first of them (the seed's single review, for clients that know only one), and when the
 * review clock must next look at the run.
 */
export function reviewColumns(reviews: OpenReview[], tasks: TaskState[]) {
  const order = (id: string) => tasks.findIndex((t) => t.task_id === id);
  const sorted = [...reviews].sort((a, b) => order(a.task_id) - order(b.task_id));
  const first = sorted[0];
  const due = sorted
    .flatMap((r) => [r.reminders_at[0], r.deadline_at])
    .filter((d): d is string => !!d)
    .sort()[0];
  return {
    open_reviews: sorted,
    pending_human_input: first
      ? {
          task_id: first.task_id,
          output: first.output,
          attempt: first.attempt,
          requested_at: first.requested_at,
        }
      : null,
    review_due_at: due ? new Date(due) : null,
  };
}

/**
 * Seconds of review wait to count when `closed` closes at `now`: the whole stretch with reviews
 * open once the last of them closes; nothing while others are still open (counted then).
 */
export function waitToCount(closed: OpenReview, remaining: OpenReview[], now: Date): number {
  if (remaining.length) return 0;
  return waitingFor(closed, now);
}

/** Seconds since the stretch of open reviews that `review` belongs to began. */
export const waitingFor = (review: OpenReview, now: Date) =>
  Math.max(0, (now.getTime() - Date.parse(review.waiting_since ?? review.requested_at)) / 1000) ||
  0;
