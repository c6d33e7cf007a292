"use client";

import { Send } from "lucide-react";
import dynamic from "next/dynamic";
import { useId } from "react";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/input";
import type { ReviewPanelProps } from "./decision";
import { DecisionError } from "./decision-error";
import { ReviewHeader } from "./review-header";
import { useFeedbackSender } from "./use-feedback-sender";

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
  const { pending, taskName } = props;
  const ask = pending.feedback;
  const feedbackId = useId();
  const name = taskName ?? pending.task_id;
  const { feedback, setFeedback, sending, error, setError, send } = useFeedbackSender(props, name);

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
        <OutcomeButtons
          outcomes={ask?.outcomes ?? []}
          defaultOutcome={ask?.default_outcome}
          disabled={sending !== null}
          onSend={send}
        />
      </div>
    </section>
  );
}

/** One button per outcome the flow may take (the first leads, the default is marked), or Send. */
function OutcomeButtons({
  outcomes,
  defaultOutcome,
  disabled,
  onSend,
}: {
  outcomes: string[];
  defaultOutcome: string | null | undefined;
  disabled: boolean;
  onSend: (outcome?: string) => void;
}) {
  if (!outcomes.length)
    return (
      <Button variant="primary" onClick={() => onSend()} disabled={disabled}>
        <Send aria-hidden />
        Send feedback
      </Button>
    );
  return (
    <>
      <span className="text-muted-foreground text-sm">Go on with:</span>
      {outcomes.map((o) => (
        <Button
          key={o}
          variant={o === outcomes[0] ? "primary" : undefined}
          onClick={() => onSend(o)}
          disabled={disabled}
        >
          {o}
          {o === defaultOutcome && (
            <span className="font-normal text-xs opacity-80">(default)</span>
          )}
        </Button>
      ))}
    </>
  );
}
