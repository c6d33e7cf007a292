"use client";

import { useState } from "react";
import { toast } from "@/components/ui/toast";
import { useMounted } from "@/components/ui/use-mounted";
import { crewApi } from "@/lib/api/client";
import { decisionFailure, type ReviewPanelProps } from "./decision";
import type { DecisionProblem } from "./decision-error";
import { doneMessage, tallyText } from "./decision-rules";
import type { ResponseValues } from "./response-values";

/** Sends a decision on a task's output, says how it went, and holds what is being sent. */
export function useDecisionSender({
  crew,
  executionId,
  pending,
  name,
  onDone,
  onSent,
}: Pick<ReviewPanelProps, "crew" | "executionId" | "pending" | "onDone"> & {
  name: string;
  onSent: () => void;
}) {
  const [error, setError] = useState<DecisionProblem | null>(null);
  const [sending, setSending] = useState<"approve" | "reject" | null>(null);
  const mounted = useMounted();

  async function send(
    approve: boolean,
    text: string,
    editedOutput?: string,
    response?: ResponseValues,
  ) {
    setSending(approve ? "approve" : "reject");
    setError(null);
    try {
      const answer = await crewApi(crew).resume({
        execution_id: executionId,
        task_id: pending.task_id,
        human_feedback: text,
        is_approve: approve,
        ...(approve && editedOutput !== undefined ? { edited_output: editedOutput } : {}),
        ...(response ? { review_response: response } : {}),
      });
      onSent();
      setSending(null);
      const recorded = answer.status === "approval_recorded";
      const tally = tallyText(answer.approvals);
      onDone(
        doneMessage(
          name,
          pending.attempt,
          approve,
          answer.status,
          tally,
          editedOutput !== undefined,
        ),
        !approve ? "sent_back" : recorded ? "recorded" : "approved",
      );
    } catch (err) {
      setSending(null);
      const problem = decisionFailure(err, `“${name}”`, ". Try again.");
      // Said once: in the panel, or, when the panel is gone by the time a deferred approval
      // fails (the reviewer moved on), where it is still seen.
      if (mounted.current) setError(problem);
      else toast.error(problem.text);
    }
  }

  return { send, sending, error, setError };
}
