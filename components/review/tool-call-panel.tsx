"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Textarea } from "@/components/ui/input";
import { toast } from "@/components/ui/toast";
import { useMounted } from "@/components/ui/use-mounted";
import { crewApi } from "@/lib/api/client";
import { CallCard, type ToolCall } from "./call-card";
import { decisionFailure, type ReviewPanelProps } from "./decision";
import { DecisionError, type DecisionProblem } from "./decision-error";
import { approvalKey } from "./deferred-approval";
import { heldByOther, ReviewHeader } from "./review-header";

/**
 * Tool calls an agent asked to make that wait for a person (requires_approval): each with its
 * tool, where the tool comes from, and its exact arguments. Approve runs it (after the undo
 * window), with arguments edited as JSON if need be; Refuse tells the agent why instead.
 */
export function ToolCallPanel(props: ReviewPanelProps) {
  const { crew, executionId, pending, me, taskName, onDone } = props;
  const queryClient = useQueryClient();
  const reasonId = useId();
  const [reason, setReason] = useState("");
  const [error, setError] = useState<DecisionProblem | null>(null);
  const mounted = useMounted();
  const name = taskName ?? pending.task_id;
  const calls = pending.tool_calls ?? [];
  const waiting = calls.filter((c) => !c.decision);
  const held = heldByOther(pending, me);

  async function send(
    call: ToolCall,
    approve: boolean,
    text: string,
    edited?: Record<string, unknown>,
  ) {
    setError(null);
    try {
      const answer = await crewApi(crew).resume({
        execution_id: executionId,
        task_id: pending.task_id,
        call_id: call.call_id,
        human_feedback: text,
        is_approve: approve,
        ...(edited !== undefined ? { edited_arguments: edited } : {}),
      });
      setReason("");
      const rest = waiting.length - 1;
      onDone(
        approve
          ? `Approved ${call.tool}${edited !== undefined ? " with your edits" : ""}: ${rest ? `${rest} more call${rest === 1 ? "" : "s"} to decide.` : answer.status === "waiting" ? "the run still waits for its other reviews." : "it runs and the agent goes on."}`
          : `Refused ${call.tool}: the agent goes on without it${rest ? ` (${rest} more call${rest === 1 ? "" : "s"} to decide)` : ""}.`,
        rest ? "recorded" : approve ? "approved" : "sent_back",
      );
      void queryClient.invalidateQueries();
    } catch (err) {
      const problem = decisionFailure(err, "this call");
      // Said once: here, or where it is still seen when this panel is gone (the reviewer moved on).
      if (mounted.current) setError(problem);
      else toast.error(problem.text);
    }
  }

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
