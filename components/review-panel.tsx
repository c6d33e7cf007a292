"use client";

import { useEffect, useRef, useState } from "react";
import { ErrorText } from "@/components/error-text";
import { ApiError, crewApi } from "@/lib/api/client";
import { Markdown } from "./markdown";

type Pending = { task_id: string; output: string; attempt: number };

/**
 * Approve, or send back with feedback, the task that awaits review. Keyboard: `a` approves,
 * `r` focuses the feedback, Ctrl/Cmd+Enter sends it back.
 */
export function ReviewPanel({
  crew,
  executionId,
  pending,
  expectedOutput,
  onDone,
  shortcuts = true,
}: {
  crew: string;
  executionId: string;
  pending: Pending;
  expectedOutput?: string;
  onDone: (message: string) => void;
  /** Keyboard shortcuts are page-wide: only one panel on a page may have them. */
  shortcuts?: boolean;
}) {
  const [feedback, setFeedback] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState<"approve" | "reject" | null>(null);
  const feedbackRef = useRef<HTMLTextAreaElement>(null);

  async function decide(approve: boolean) {
    if (sending) return;
    if (!approve && !feedback.trim()) {
      setError("Say what to change: feedback is needed to request changes.");
      feedbackRef.current?.focus();
      return;
    }
    // Optimistic: the outcome shows at once, and is taken back if the server says no.
    setSending(approve ? "approve" : "reject");
    setError(null);
    try {
      const r = await crewApi(crew).resume({
        execution_id: executionId,
        task_id: pending.task_id,
        human_feedback: feedback,
        is_approve: approve,
      });
      setFeedback("");
      onDone(r.message);
    } catch (err) {
      setSending(null);
      const conflict = err instanceof ApiError && err.problem.status === 409;
      setError(
        conflict ? `Not applied: ${err.message}` : err instanceof Error ? err.message : String(err),
      );
    }
  }

  const decideRef = useRef(decide);
  decideRef.current = decide;
  useEffect(() => {
    if (!shortcuts) return;
    const onKey = (e: KeyboardEvent) => {
      const typing =
        e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLInputElement;
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && e.target === feedbackRef.current) {
        e.preventDefault();
        decideRef.current(false);
      } else if (!typing && e.key === "a" && !e.ctrlKey && !e.metaKey) {
        e.preventDefault();
        decideRef.current(true);
      } else if (!typing && e.key === "r" && !e.ctrlKey && !e.metaKey) {
        e.preventDefault();
        feedbackRef.current?.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [shortcuts]);

  if (sending) {
    return (
      <section className="card review">
        <p role="status">
          {sending === "approve"
            ? `Approved ${pending.task_id} — continuing…`
            : `Sent ${pending.task_id} back — it will run again…`}
        </p>
      </section>
    );
  }
  return (
    <section className="card review" aria-labelledby="review-title">
      <h2 id="review-title" style={{ marginTop: 0 }}>
        Review: {pending.task_id} <span className="muted">(attempt {pending.attempt})</span>
      </h2>
      <div className="columns">
        <div>
          <h3>Output</h3>
          <Markdown text={pending.output} />
        </div>
        {expectedOutput && (
          <div>
            <h3>Expected</h3>
            <p className="muted">{expectedOutput}</p>
          </div>
        )}
      </div>
      <label htmlFor="feedback">Feedback</label>
      <textarea
        id="feedback"
        ref={feedbackRef}
        rows={3}
        value={feedback}
        onChange={(e) => setFeedback(e.target.value)}
      />
      <ErrorText>{error}</ErrorText>
      <div className="actions">
        <button
          type="button"
          className="primary"
          onClick={() => decide(true)}
          disabled={sending !== null}
        >
          Approve
        </button>
        <button type="button" onClick={() => decide(false)} disabled={sending !== null}>
          Request changes
        </button>
        <span className="muted small">Keys: a approve · r feedback · Ctrl/⌘+Enter send back</span>
      </div>
    </section>
  );
}
