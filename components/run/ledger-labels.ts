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
  task_inherited: "Inherited by a fork",
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

/**
 * Who acted, as a person reads it: people by e-mail, Crewdeck for its own clock, and an
 * organization token as a token rather than its internal id ("org-token:CREW_TOKEN").
 */
export function actorName(actor: string): string {
  if (actor === "system") return "Crewdeck";
  if (actor === "org-token:CREW_TOKEN") return "the CREW_TOKEN token";
  if (actor.startsWith("org-token:")) return "an organization token";
  return actor;
}
