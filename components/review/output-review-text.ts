import type { OpenReviewView } from "@/lib/contract/reviews";

/** Approvals still wanted from other reviewers before the run goes on. */
export function approvalsLeft(pending: Pick<OpenReviewView, "required_approvals" | "approvals">) {
  return pending.required_approvals - pending.approvals.length;
}

/** What the panel says while a decision is on its way. */
export function sendingNote(sending: "approve" | "reject"): string {
  return sending === "approve" ? "Sending the approval…" : "Sending it back…";
}
