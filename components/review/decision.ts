import { ApiError } from "@/lib/api/client";
import type { OpenReviewView } from "@/lib/contract/reviews";
import { errorMessage } from "@/lib/errors";
import type { DecisionProblem } from "./decision-error";

/** What a decision did: the review is over, sent back, or one vote of several was recorded. */
export type Decided = "approved" | "sent_back" | "recorded";

/** What the inbox and the run page hand a review panel (output or tool calls alike). */
export type ReviewPanelProps = {
  crew: string;
  executionId: string;
  pending: OpenReviewView;
  /** The signed-in person's e-mail: their approval and claim are shown as theirs. */
  me: string | null;
  /** A remote deployment's review is decided, not claimed or reassigned. */
  claimable?: boolean;
  expectedOutput?: string;
  /** The task's name in the crew; its id when not given. */
  taskName?: string;
  onDone: (message: string, decision: Decided) => void;
  /** A claim, release or reassignment changed the review. */
  onChanged?: () => void;
  /** Keyboard shortcuts are page-wide: only one panel on a page may have them. */
  shortcuts?: boolean;
};

/**
 * Why a decision was not sent: a 409 means someone else decided first or the run moved on
 * (`decided` names what was decided on); anything else is said as it came, with `retry` after.
 */
export function decisionFailure(err: unknown, decided: string, retry = ""): DecisionProblem {
  const conflict = err instanceof ApiError && err.problem.status === 409;
  return {
    conflict,
    text: conflict
      ? `Someone else already decided on ${decided}, or the run moved on. ${errorMessage(err)}`
      : `Could not send the decision: ${errorMessage(err)}${retry}`,
  };
}
