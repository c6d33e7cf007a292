"use client";

import { Check, PencilLine, RotateCcw, Undo2, X } from "lucide-react";
import dynamic from "next/dynamic";
import { useId } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/input";
import type { ReviewPanelProps } from "./decision";
import { DecisionError } from "./decision-error";
import { UNDO_SECONDS } from "./deferred-approval";
import { Kbd } from "./kbd";
import { approvalsLeft, sendingNote } from "./output-review-text";
import { ReviewHeader } from "./review-header";
import { useOutputDecision } from "./use-output-decision";

// Markdown (react-markdown) loads with the first output shown, not with the page.
const Markdown = dynamic(() => import("@/components/markdown").then((m) => m.Markdown), {
  ssr: false,
  loading: () => null,
});

// The reviewer's form loads only for tasks that ask for one.
const ResponseForm = dynamic(() => import("./response-form").then((m) => m.ResponseForm), {
  loading: () => null,
});

// The editor loads when someone chooses to edit, not with every review panel.
const OutputEditor = dynamic(() => import("./output-editor").then((m) => m.OutputEditor), {
  loading: () => null,
});

/**
 * Approve, or send back with feedback, a task that awaits review: who it is for and who holds it,
 * the output (editable), the task's response form, the decision. Approval waits out a
 * {UNDO_SECONDS}-second undo window (toast and panel both offer Undo). Keys: `a` approve,
 * `s` focus the feedback, Ctrl/⌘+Enter send back, `u` undo.
 */
export function OutputReviewPanel(props: ReviewPanelProps) {
  const { pending, expectedOutput, shortcuts = true } = props;
  const d = useOutputDecision(props);
  const { name } = d;
  const left = approvalsLeft(pending);
  return (
    <section aria-label={`Review of ${name}`} className="grid gap-4">
      <ReviewHeader {...props} heading={<>Output of “{name}”</>} />
      {d.approvedByMe && (
        <Alert tone="success" title="You approved this">
          It needs {left} more approval{left === 1 ? "" : "s"} from other reviewers before the run
          goes on.
        </Alert>
      )}
      {expectedOutput && (
        <p className="-mt-2 text-muted-foreground text-sm">
          <span className="font-medium">Expected:</span> {expectedOutput}
        </p>
      )}
      <OutputBody output={pending.output} d={d} />

      {d.approvingAt !== null && (
        <Alert tone="info" title={`Approving “${name}” in ${UNDO_SECONDS} seconds`}>
          <div className="flex flex-wrap items-center gap-2">
            <span>Undo keeps it waiting for review.</span>
            <Button size="sm" onClick={d.undo}>
              <Undo2 aria-hidden />
              Undo
            </Button>
          </div>
        </Alert>
      )}
      {d.sending && (
        <p role="status" className="text-muted-foreground text-sm">
          {sendingNote(d.sending)}
        </p>
      )}
      {d.error && <DecisionError error={d.error} onDismiss={d.dismissError} />}

      {/* A voter has done their part: the form and buttons are for those still to decide. */}
      {!d.approvedByMe && <DecisionForm d={d} shortcuts={shortcuts} />}
    </section>
  );
}

type OutputDecision = ReturnType<typeof useOutputDecision>;

/** The output as markdown, or in the editor; and the switch between the two. */
function OutputBody({ output, d }: { output: string; d: OutputDecision }) {
  const { draft, edited, busy } = d;
  return (
    <div className="grid gap-4">
      {draft === null ? (
        <div className="min-w-0 rounded-lg border bg-background p-4 text-sm leading-6 [&_.markdown>:first-child]:mt-0 [&_.markdown>:last-child]:mb-0">
          <Markdown text={output} />
        </div>
      ) : (
        <OutputEditor value={draft} onChange={d.setDraft} json={d.json} disabled={busy} />
      )}
      <div className="-mt-2 flex flex-wrap items-center gap-2">
        {draft === null ? (
          <Button size="sm" onClick={() => d.setDraft(output)} disabled={busy || d.approvedByMe}>
            <PencilLine aria-hidden />
            Edit output
          </Button>
        ) : (
          <Button size="sm" onClick={() => d.setDraft(null)} disabled={busy}>
            <X aria-hidden />
            Discard edits
          </Button>
        )}
        {edited !== undefined && (
          <span className="text-muted-foreground text-xs">
            Approving sends your edit; later tasks get it as this task's output.
          </span>
        )}
      </div>
    </div>
  );
}

/** The task's response form, the feedback, and the two decisions with their keys. */
function DecisionForm({ d, shortcuts }: { d: OutputDecision; shortcuts: boolean }) {
  const feedbackId = useId();
  const { edited, busy } = d;
  return (
    <>
      {d.schema && (
        <ResponseForm
          ref={d.formRef}
          schema={d.schema}
          values={d.answers}
          onChange={d.answer}
          disabled={busy}
          errors={d.missing}
        />
      )}
      <div className="grid gap-1.5">
        <label htmlFor={feedbackId} className="font-medium text-sm">
          Feedback
        </label>
        <Textarea
          id={feedbackId}
          ref={d.feedbackRef}
          rows={3}
          value={d.feedback}
          disabled={busy}
          placeholder="What should change? Needed to send it back; optional with an approval."
          onChange={(e) => d.setFeedback(e.target.value)}
        />
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="primary" onClick={d.approve} disabled={busy || d.held}>
          <Check aria-hidden />
          {edited !== undefined ? "Approve edited" : "Approve"}
        </Button>
        <Button onClick={d.sendBack} disabled={busy || d.held}>
          <RotateCcw aria-hidden />
          Send back
        </Button>
        {shortcuts && (
          <p className="ml-auto hidden items-center gap-1.5 text-muted-foreground text-xs sm:flex">
            <Kbd>a</Kbd> approve <Kbd>u</Kbd> undo <Kbd>s</Kbd> feedback <Kbd>Ctrl</Kbd>+
            <Kbd>Enter</Kbd> send back
          </p>
        )}
      </div>
    </>
  );
}
