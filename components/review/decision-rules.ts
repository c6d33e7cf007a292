import { jsonProblem } from "@/components/json-problem";

/** The message the inbox shows once a decision on the output went through. */
export function doneMessage(
  name: string,
  attempt: number,
  approve: boolean,
  status: string,
  tally: string,
  edited: boolean,
) {
  if (!approve)
    return `Sent “${name}” back: it will run again with your feedback (attempt ${attempt + 1}).`;
  if (status === "approval_recorded")
    return `Your approval of “${name}” is recorded${tally}; it waits for more approvals.`;
  if (status === "waiting")
    return `Approved “${name}”${tally}; the run still waits for its other reviews.`;
  return `Approved “${name}”${edited ? " with your edits" : ""}${tally}: the run continues.`;
}

/** " (2 of 3)" when the review counts approvals toward a quorum; else nothing. */
export const tallyText = (approvals: { count: number; required: number } | null | undefined) =>
  approvals ? ` (${approvals.count} of ${approvals.required})` : "";

/** Why the edited output cannot be approved (it must parse when the output is JSON), or null. */
export function approveProblem(edited: string | undefined, json: boolean): string | null {
  if (edited === undefined || !json) return null;
  const problem = jsonProblem(edited);
  return problem ? `The edited output is not approved: ${problem}` : null;
}

/** Why the task cannot be sent back as it stands, or null; `focus` when feedback is wanted. */
export function sendBackProblem(
  edited: string | undefined,
  feedback: string,
): { text: string; focus: boolean } | null {
  if (edited !== undefined)
    return {
      text: "Edits are approved, not sent back: discard them to send the task back with feedback.",
      focus: false,
    };
  if (!feedback.trim())
    return { text: "Say what to change: sending back needs feedback.", focus: true };
  return null;
}

type Key = {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  defaultPrevented: boolean;
};

/**
 * What a key press does on a review: Ctrl/⌘+Enter in the feedback sends back; elsewhere (not
 * typing) a approves, s or r focuses the feedback, u undoes. Null: not ours.
 */
export function reviewKey(
  e: Key,
  { inFeedback, typing }: { inFeedback: boolean; typing: boolean },
): "sendBack" | "approve" | "focus" | "undo" | null {
  if (e.defaultPrevented || e.altKey) return null;
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && inFeedback) return "sendBack";
  if (typing || e.ctrlKey || e.metaKey) return null;
  if (e.key === "a") return "approve";
  if (e.key === "s" || e.key === "r") return "focus";
  if (e.key === "u") return "undo";
  return null;
}
