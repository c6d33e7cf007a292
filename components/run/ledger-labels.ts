// How the ledger's actions and effects read on the run page (the API keeps the event names).
const ACTIONS: Record<string, string> = {
  review_requested: "Review requested",
  review_claimed: "Claimed",
  review_released: "Released",
  review_reassigned: "Reassigned",
  review_submitted: "Decided",
  review_reminded: "Reminder sent",
  review_timed_out: "Timed out",
  review_escalated: "Escalated",
};

export const actionLabel = (action: string) => ACTIONS[action] ?? action.replaceAll("_", " ");

export function effectLabel(effect: string) {
  const text = effect.replaceAll("_", " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The tone of an effect's badge: approvals green, send-backs and stops red, waiting blue. */
export function effectTone(effect: string): "success" | "danger" | "warning" | "info" | "neutral" {
  if (effect === "approved" || effect === "approve" || effect === "approval_recorded")
    return "success";
  if (effect === "sent_back" || effect === "send_back" || effect === "stop" || effect === "refused")
    return "danger";
  if (effect === "escalated" || effect === "escalate" || effect === "claim_expired")
    return "warning";
  if (effect === "awaiting_review") return "info";
  return "neutral";
}
