import { actorName } from "@/components/run/ledger-labels";
import type { LedgerEntry } from "@/lib/api/client";

// What became of a review that left the inbox while someone had it open: the last thing its
// decision ledger says of the task, in words ("Reassigned to rita@example.com", "Approved by
// the CREW_TOKEN token"), for the notice the inbox shows as it moves to the next review.

const names = (v: unknown) =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string").join(", ") : "";

export function handOffText(entries: LedgerEntry[], taskId: string | null): string | null {
  const last = [...entries]
    .reverse()
    .find((e) => (taskId === null || e.task_id === taskId) && e.action !== "review_reminded");
  if (!last) return null;
  const by = actorName(last.actor);
  switch (last.effect) {
    case "approved":
      return `Approved by ${by}`;
    case "sent_back":
      return `Sent back by ${by}`;
    case "approval_recorded":
      return `${by} approved; more approvals are needed`;
    case "reassigned":
      return `Reassigned to ${names(last.decision.to) || "someone else"} by ${by}`;
    case "claimed":
      return `Claimed by ${by}`;
    case "escalated":
      return `Escalated to ${names(last.decision.to) || "an administrator"}`;
    case "timed_out":
      return "Decided by its deadline";
    default:
      return null;
  }
}
