import { sha256Hex } from "./entry";

/** The review events of issue 15's contract: each one becomes a ledger entry. */
export const LEDGER_EVENT_TYPES: ReadonlySet<string> = new Set([
  "review_requested",
  "review_claimed",
  "review_released",
  "review_reassigned",
  "review_submitted",
  "review_reminded",
  "review_timed_out",
  "review_escalated",
  // A fork's task taken from its origin run, edited or not (lib/runs/fork-execution.ts).
  "task_inherited",
]);

export type ReviewEvent = { type: string; data: Record<string, unknown> };
export type EventFacts = {
  actor: string;
  decision: Record<string, unknown>;
  effect: string;
  /** From the event itself; null when it must be looked up (see appendLedger). */
  output_sha256: string | null;
};

const str = (v: unknown) => (typeof v === "string" ? v : undefined);
const strings = (v: unknown): string[] | undefined =>
  Array.isArray(v) && v.every((s) => typeof s === "string") ? v : undefined;
// Present fields only: old runs lack the new ones, and absent must not hash as null.
const defined = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/**
 * Who acted, what they decided and its effect, from a review event's data (every field beyond
 * the old ones optional, per the contract). Texts that can be long (edited output, diff) are
 * kept as hashes; the event log has them in full.
 */
export function describeEvent({ type, data }: ReviewEvent): EventFacts {
  const actor = str(data.reviewer) ?? str(data.by) ?? "system";
  const seen =
    str(data.output_sha256) ?? (typeof data.output === "string" ? sha256Hex(data.output) : null);
  const facts = (effect: string, decision: Record<string, unknown>) => ({
    actor,
    effect,
    decision: defined(decision),
    output_sha256: seen,
  });
  switch (type) {
    case "review_requested":
      return facts("awaiting_review", {
        assignees: strings(data.assignees),
        required_approvals: data.required_approvals,
        deadline_at: data.deadline_at,
      });
    case "review_claimed":
      return facts("claimed", { until: data.until });
    case "review_released":
      return facts(data.reason === "expired" ? "claim_expired" : "released", {
        reason: data.reason,
      });
    case "review_reassigned":
      return facts("reassigned", { from: strings(data.from), to: strings(data.to) });
    case "review_submitted": {
      const decision = str(data.decision);
      const edited = typeof data.edited_output === "string" ? data.edited_output : undefined;
      return facts(str(data.effect) ?? (decision === "approve" ? "approved" : "sent_back"), {
        decision,
        feedback: data.feedback,
        edited: data.edited === true ? true : undefined,
        edited_output_sha256: edited === undefined ? undefined : sha256Hex(edited),
        diff_sha256: typeof data.diff === "string" ? sha256Hex(data.diff) : undefined,
        response: data.response,
        approvals: data.approvals,
      });
    }
    case "review_reminded":
      return facts("reminded", {
        assignees: strings(data.assignees),
        deadline_at: data.deadline_at,
      });
    case "review_timed_out":
      return facts(str(data.action) ?? "timed_out", {
        action: data.action,
        deadline_at: data.deadline_at,
      });
    case "review_escalated":
      return facts("escalated", { to: strings(data.to) });
    case "task_inherited": {
      const edited = typeof data.edited_output === "string" ? data.edited_output : undefined;
      return facts(edited === undefined ? "inherited" : "inherited_edited", {
        from_execution: data.from,
        edited: edited === undefined ? undefined : true,
        edited_output_sha256: edited === undefined ? undefined : sha256Hex(edited),
      });
    }
    default:
      return facts(type, {});
  }
}
