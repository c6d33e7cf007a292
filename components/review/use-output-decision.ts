"use client";

import { useRef, useState } from "react";
import type { ReviewPanelProps } from "./decision";
import { approveProblem, sendBackProblem } from "./decision-rules";
import {
  approvalKey,
  cancelApproval,
  scheduleApproval,
  useScheduledApproval,
} from "./deferred-approval";
import { isJsonOutput } from "./json-output";
import { heldByOther } from "./review-header";
import { useDecisionSender } from "./use-decision-sender";
import { useResponseAnswers } from "./use-response-answers";
import { useReviewKeys } from "./use-review-keys";

/**
 * The state of a decision on a task's output and the ways to make it: the feedback, the edited
 * output, the response form's answers, approve (after the undo window), send back, undo, and
 * the page-wide keys when `shortcuts` (a approve, s focus the feedback, Ctrl/⌘+Enter send back,
 * u undo).
 */
export function useOutputDecision(props: ReviewPanelProps) {
  const { executionId, pending, me, taskName, shortcuts = true } = props;
  const words = useReviewerWords(pending.output);
  const { feedback, edited, json, feedbackRef } = words;
  const key = approvalKey(executionId, pending.task_id, pending.attempt);
  const approvingAt = useScheduledApproval(key);
  const name = taskName ?? pending.task_id;
  const schema = pending.response_schema;
  const responses = useResponseAnswers(schema);
  const approvedByMe = me !== null && pending.approvals.some((a) => a.reviewer === me);
  const held = heldByOther(pending, me);
  const sender = useDecisionSender({ ...props, name, onSent: words.clear });
  const { send, sending, error, setError } = sender;

  function approve() {
    if (sending || approvingAt || approvedByMe || held) return;
    const response = responses.checked();
    if (response === null) {
      setError(null);
      return;
    }
    const problem = approveProblem(edited, json);
    if (problem) {
      setError({ text: problem, conflict: false });
      return;
    }
    const text = feedback;
    const editedOutput = edited;
    // One confirmation: the panel's own notice, with its Undo (and `u`); no toast beside it.
    scheduleApproval(key, () => void send(true, text, editedOutput, response));
  }

  function undo() {
    cancelApproval(key);
  }

  function sendBack() {
    if (sending || approvingAt || held) return;
    const problem = sendBackProblem(edited, feedback);
    if (problem) {
      setError({ text: problem.text, conflict: false });
      if (problem.focus) feedbackRef.current?.focus();
      return;
    }
    // The response form is for an approval: a send-back goes with it only when it is complete.
    void send(false, feedback, undefined, responses.complete());
  }

  useReviewKeys(shortcuts, feedbackRef, { approve, sendBack, undo });

  return {
    name,
    schema,
    ...words,
    answers: responses.answers,
    answer: responses.answer,
    missing: responses.missing,
    formRef: responses.formRef,
    error,
    dismissError: () => setError(null),
    sending,
    approvingAt,
    approvedByMe,
    held,
    busy: sending !== null || approvingAt !== null,
    approve,
    sendBack,
    undo,
  };
}

/** What the reviewer writes: feedback, and their own version of the output once they edit it. */
function useReviewerWords(output: string) {
  const [feedback, setFeedback] = useState("");
  const [draft, setDraft] = useState<string | null>(null);
  const feedbackRef = useRef<HTMLTextAreaElement>(null);
  return {
    feedback,
    setFeedback,
    feedbackRef,
    draft,
    setDraft,
    edited: draft !== null && draft !== output ? draft : undefined,
    json: isJsonOutput(output),
    clear: () => {
      setFeedback("");
      setDraft(null);
    },
  };
}
