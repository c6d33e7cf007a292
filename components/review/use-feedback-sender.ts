"use client";

import { useState } from "react";
import { crewApi } from "@/lib/api/client";
import { decisionFailure, type ReviewPanelProps } from "./decision";
import type { DecisionProblem } from "./decision-error";

/** What the reviewer is told once the flow has their feedback (and the outcome they chose). */
export function feedbackSentMessage(name: string, outcome?: string): string {
  return outcome !== undefined
    ? `“${name}”: ${outcome}. The flow goes on.`
    : `Feedback on “${name}” sent. The flow goes on.`;
}

/**
 * The feedback being written and its sending: `sending` is the outcome on its way ("" for plain
 * feedback), null when nothing is.
 */
export function useFeedbackSender(props: ReviewPanelProps, name: string) {
  const { crew, executionId, pending, onDone } = props;
  const [feedback, setFeedback] = useState("");
  const [sending, setSending] = useState<string | null>(null);
  const [error, setError] = useState<DecisionProblem | null>(null);

  async function send(outcome?: string) {
    setSending(outcome ?? "");
    setError(null);
    try {
      await crewApi(crew).resume({
        execution_id: executionId,
        task_id: pending.task_id,
        human_feedback: feedback,
        is_approve: true,
        ...(outcome !== undefined ? { outcome } : {}),
      });
      setSending(null);
      setFeedback("");
      onDone(feedbackSentMessage(name, outcome), "approved");
    } catch (err) {
      setSending(null);
      setError(decisionFailure(err, `“${name}”`, ". Try again."));
    }
  }

  return { feedback, setFeedback, sending, error, setError, send };
}
