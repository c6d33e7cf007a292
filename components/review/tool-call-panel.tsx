"use client";

import { useId } from "react";
import { Textarea } from "@/components/ui/input";
import { CallCard } from "./call-card";
import type { ReviewPanelProps } from "./decision";
import { DecisionError } from "./decision-error";
import { approvalKey } from "./deferred-approval";
import { heldByOther, ReviewHeader } from "./review-header";
import { useToolCallSender } from "./use-tool-call-sender";

/**
 * Tool calls an agent asked to make that wait for a person (requires_approval): each with its
 * tool, where the tool comes from, and its exact arguments. Approve runs it (after the undo
 * window), with arguments edited as JSON if need be; Refuse tells the agent why instead.
 */
export function ToolCallPanel(props: ReviewPanelProps) {
  const { executionId, pending, me, taskName } = props;
  const reasonId = useId();
  const name = taskName ?? pending.task_id;
  const calls = pending.tool_calls ?? [];
  const waiting = calls.filter((c) => !c.decision);
  const held = heldByOther(pending, me);
  const { reason, setReason, error, setError, send } = useToolCallSender(props, waiting.length);

  return (
    <section aria-label={`Tool calls of ${name} awaiting approval`} className="grid gap-4">
      <ReviewHeader
        {...props}
        heading={
          <>
            {calls.length === 1 ? "A tool call" : `${calls.length} tool calls`} of “{name}” to
            approve
          </>
        }
      />
      <p className="m-0 text-muted-foreground text-sm">
        The agent stopped before running {calls.length === 1 ? "this call" : "these calls"}. Approve
        to run it as shown (or with your edits), or refuse: the agent reads your reason as the
        call's result and goes on without it.
      </p>
      {calls.map((call) => (
        <CallCard
          key={call.call_id}
          call={call}
          disabled={held}
          approvalKeyFor={`${approvalKey(executionId, pending.task_id, pending.attempt)}:${call.call_id}`}
          onApprove={(edited) => {
            const text = reason;
            return () => void send(call, true, text, edited);
          }}
          onRefuse={() => {
            if (!reason.trim()) {
              setError({
                text: "Say why in the reason field: the agent reads it instead of a result.",
                conflict: false,
              });
              document.getElementById(reasonId)?.focus();
              return;
            }
            void send(call, false, reason);
          }}
          onInvalid={(text) => setError({ text, conflict: false })}
        />
      ))}
      {error && <DecisionError error={error} onDismiss={() => setError(null)} />}
      {waiting.length > 0 && (
        <div className="grid gap-1.5">
          <label htmlFor={reasonId} className="font-medium text-sm">
            Reason
          </label>
          <Textarea
            id={reasonId}
            rows={2}
            value={reason}
            disabled={held}
            placeholder="Needed to refuse: the agent reads it as the call's result. Optional with an approval."
            onChange={(e) => setReason(e.target.value)}
          />
        </div>
      )}
    </section>
  );
}
