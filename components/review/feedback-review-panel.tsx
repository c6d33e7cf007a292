"use client";

import { Send } from "lucide-react";
import dynamic from "next/dynamic";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/input";
import { crewApi } from "@/lib/api/client";
import { decisionFailure, type ReviewPanelProps } from "./decision";
import { DecisionError, type DecisionProblem } from "./decision-error";
import { ReviewHeader } from "./review-header";

const Markdown = dynamic(() => import("@/components/markdown").then((m) => m.Markdown), {
  ssr: false,
  loading: () => null,
});

/**
 * A flow's human feedback: the method's question, its output, and one button per outcome the
 * flow may take next (the default marked). Feedback goes with the choice; without outcomes, the
 * feedback is sent and the flow goes on.
 */
export function FeedbackReviewPanel(props: ReviewPanelProps) {
  const { crew, executionId, pending, taskName, onDone } = props;
  const ask = pending.feedback;
  const feedbackId = useId();
  const [feedback, setFeedback] = useState("");
  const [sending, setSending] = useState<string | null>(null);
  const [error, setError] = useState<DecisionProblem | null>(null);
  const name = taskName ?? pending.task_id;
  const outcomes = ask?.outcomes ?? [];

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
      onDone(
        outcome !== undefined
          ? `“${name}”: ${outcome}. The flow goes on.`
          : `Feedback on “${name}” sent. The flow goes on.`,
        "approved",
      );
    } catch (err) {
      setSending(null);
      setError(decisionFailure(err, `“${name}”`, ". Try again."));
    }
  }

  return (
    <section aria-label={`Feedback on ${name}`} className="grid gap-4">
      <ReviewHeader {...props} heading={ask?.message ?? <>Feedback on “{name}”</>} />
      <div className="min-w-0 rounded-lg border bg-background p-4 text-sm leading-6 [&_.markdown>:first-child]:mt-0 [&_.markdown>:last-child]:mb-0">
        <Markdown text={pending.output} />
      </div>
      {sending !== null && (
        <p role="status" className="text-muted-foreground text-sm">
          Sending…
        </p>
      )}
      {error && <DecisionError error={error} onDismiss={() => setError(null)} />}
      <div className="grid gap-1.5">
        <label htmlFor={feedbackId} className="font-medium text-sm">
          Feedback <span className="font-normal text-muted-foreground">(optional)</span>
        </label>
        <Textarea
          id={feedbackId}
          rows={3}
          value={feedback}
          disabled={sending !== null}
          placeholder="Anything the next steps should know."
          onChange={(e) => setFeedback(e.target.value)}
        />
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {outcomes.length ? (
          <>
            <span className="text-muted-foreground text-sm">Go on with:</span>
            {outcomes.map((o) => (
              <Button
                key={o}
                variant={o === outcomes[0] ? "primary" : undefined}
                onClick={() => send(o)}
                disabled={sending !== null}
              >
                {o}
                {o === ask?.default_outcome && (
                  <span className="font-normal text-xs opacity-80">(default)</span>
                )}
              </Button>
            ))}
          </>
        ) : (
          <Button variant="primary" onClick={() => send()} disabled={sending !== null}>
            <Send aria-hidden />
            Send feedback
          </Button>
        )}
      </div>
    </section>
  );
}
