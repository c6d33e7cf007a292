"use client";

import { useEffect, useRef, useState } from "react";
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
}: {
  crew: string;
  executionId: string;
  pending: Pending;
  expectedOutput?: string;
  onDone: (message: string) => void;
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
      const conflict = err instanceof ApiError && err.problem.status === 409;
      setError(
        conflict
          ? `Already reviewed: ${err.message}`
          : err instanceof Error
            ? err.message
            : String(err),
      );
    } finally {
      setSending(null);
    }
  }

  const decideRef = useRef(decide);
  decideRef.current = decide;
  useEffect(() => {
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
  }, []);

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
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
      <div className="actions">
        <button
          type="button"
          className="primary"
          onClick={() => decide(true)}
          disabled={sending !== null}
        >
          {sending === "approve" ? "Approving…" : "Approve"}
        </button>
        <button type="button" onClick={() => decide(false)} disabled={sending !== null}>
          {sending === "reject" ? "Sending back…" : "Request changes"}
        </button>
        <span className="muted small">Keys: a approve · r feedback · Ctrl/⌘+Enter send back</span>
      </div>
    </section>
  );
}
