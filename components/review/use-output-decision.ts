"use client";

import { useEffect, useRef, useState } from "react";
import { jsonProblem } from "@/components/json-problem";
import { toast } from "@/components/ui/toast";
import { useMounted } from "@/components/ui/use-mounted";
import { crewApi } from "@/lib/api/client";
import type { ReviewPanelProps } from "./decision";
import { decisionFailure } from "./decision";
import type { DecisionProblem } from "./decision-error";
import {
  approvalKey,
  cancelApproval,
  scheduleApproval,
  useScheduledApproval,
} from "./deferred-approval";
import { isJsonOutput } from "./json-output";
import { isTyping } from "./kbd";
import { missingAnswers, type ResponseValues } from "./response-values";
import { heldByOther } from "./review-header";

/** The message the inbox shows once a decision on the output went through. */
function doneMessage(
  name: string,
  attempt: number,
  approve: boolean,
  status: string,
  tally: string,
  edited: boolean,
) {
  if (!approve)
    return `Sent “${name}” back: it will run again with your feedback (attempt ${attempt + 1}).`;
  if (status === "approval_recorded")
    return `Your approval of “${name}” is recorded${tally}; it waits for more approvals.`;
  if (status === "waiting")
    return `Approved “${name}”${tally}; the run still waits for its other reviews.`;
  return `Approved “${name}”${edited ? " with your edits" : ""}${tally}: the run continues.`;
}

/**
 * The state of a decision on a task's output and the ways to make it: the feedback, the edited
 * output, the response form's answers, approve (after the undo window), send back, undo, and
 * the page-wide keys when `shortcuts` (a approve, s focus the feedback, Ctrl/⌘+Enter send back,
 * u undo).
 */
export function useOutputDecision({
  crew,
  executionId,
  pending,
  me,
  taskName,
  onDone,
  shortcuts = true,
}: ReviewPanelProps) {
  const [feedback, setFeedback] = useState("");
  // The reviewer's own version of the output, once they choose to edit it.
  const [draft, setDraft] = useState<string | null>(null);
  const json = isJsonOutput(pending.output);
  const edited = draft !== null && draft !== pending.output ? draft : undefined;
  const [error, setError] = useState<DecisionProblem | null>(null);
  const [sending, setSending] = useState<"approve" | "reject" | null>(null);
  const feedbackRef = useRef<HTMLTextAreaElement>(null);
  const mounted = useMounted();
  const key = approvalKey(executionId, pending.task_id, pending.attempt);
  const approvingAt = useScheduledApproval(key);
  const name = taskName ?? pending.task_id;
  const schema = pending.response_schema;
  const [answers, setAnswers] = useState<ResponseValues>({});
  const [missing, setMissing] = useState<string[]>([]);
  const approvedByMe = me !== null && pending.approvals.some((a) => a.reviewer === me);
  const held = heldByOther(pending, me);

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
      setFeedback("");
      setDraft(null);
      setSending(null);
      const recorded = answer.status === "approval_recorded";
      const tally = answer.approvals
        ? ` (${answer.approvals.count} of ${answer.approvals.required})`
        : "";
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

  // The response form, when the task has one: what is missing is said before anything is sent.
  function checkedAnswers(): ResponseValues | null | undefined {
    if (!schema) return undefined;
    const gaps = missingAnswers(schema, answers);
    setMissing(gaps);
    if (!gaps.length) return answers;
    // Said on the fields themselves ("Required"), the first of them focused.
    setError(null);
    requestAnimationFrame(() =>
      document.querySelector<HTMLElement>('[data-response-form] [aria-invalid="true"]')?.focus(),
    );
    return null;
  }

  function approve() {
    if (sending || approvingAt || approvedByMe || held) return;
    const response = checkedAnswers();
    if (response === null) return;
    if (edited !== undefined && json) {
      const problem = jsonProblem(edited);
      if (problem) {
        setError({ text: `The edited output is not approved: ${problem}`, conflict: false });
        return;
      }
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
    if (edited !== undefined) {
      setError({
        text: "Edits are approved, not sent back: discard them to send the task back with feedback.",
        conflict: false,
      });
      return;
    }
    if (!feedback.trim()) {
      setError({ text: "Say what to change: sending back needs feedback.", conflict: false });
      feedbackRef.current?.focus();
      return;
    }
    // The response form is for an approval: a send-back goes with it only when it is complete.
    const complete = schema && !missingAnswers(schema, answers).length ? answers : undefined;
    void send(false, feedback, undefined, complete);
  }

  function answer(v: ResponseValues) {
    setAnswers(v);
    if (!missing.length || !schema) return;
    const gaps = missingAnswers(schema, v);
    setMissing(gaps);
  }

  const actions = useRef({ approve, sendBack, undo });
  actions.current = { approve, sendBack, undo };
  useEffect(() => {
    if (!shortcuts) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey) return;
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && e.target === feedbackRef.current) {
        e.preventDefault();
        actions.current.sendBack();
        return;
      }
      if (isTyping(e) || e.ctrlKey || e.metaKey) return;
      if (e.key === "a") {
        e.preventDefault();
        actions.current.approve();
      } else if (e.key === "s" || e.key === "r") {
        e.preventDefault();
        feedbackRef.current?.focus();
      } else if (e.key === "u") {
        e.preventDefault();
        actions.current.undo();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [shortcuts]);

  return {
    name,
    schema,
    json,
    feedback,
    setFeedback,
    feedbackRef,
    draft,
    setDraft,
    edited,
    answers,
    answer,
    missing,
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
