"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Check, PencilLine, RotateCcw, Undo2, X } from "lucide-react";
import dynamic from "next/dynamic";
import { useEffect, useId, useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/input";
import { toast } from "@/components/ui/toast";
import { ApiError, crewApi } from "@/lib/api/client";
import type { OpenReviewView } from "@/lib/contract/reviews";
import { DecisionError } from "./decision-error";
import {
  approvalKey,
  cancelApproval,
  scheduleApproval,
  UNDO_SECONDS,
  useScheduledApproval,
} from "./deferred-approval";
import { isJsonOutput, jsonProblem } from "./json-output";
import { isTyping, Kbd } from "./kbd";
import { missingAnswers, type ResponseValues } from "./response-values";
import { ReviewOwnership } from "./review-ownership";

// Markdown (react-markdown) loads with the first output shown, not with the page.
const Markdown = dynamic(() => import("@/components/markdown").then((m) => m.Markdown), {
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

export type Decided = "approved" | "sent_back" | "recorded";

// Tool calls waiting for approval have their own panel, loaded when one is shown.
const ToolCallPanel = dynamic(() => import("./tool-call-panel").then((m) => m.ToolCallPanel), {
  loading: () => null,
});

type ReviewPanelProps = Parameters<typeof OutputReviewPanel>[0];

/** The review of a task's output, or of the tool calls its agent asked to make. */
export function ReviewPanel(props: ReviewPanelProps) {
  if (props.pending.kind === "tool_call") return <ToolCallPanel {...props} />;
  return <OutputReviewPanel {...props} />;
}

/**
 * Approve, or send back with feedback, a task that awaits review: who it is for and who holds it,
 * the output (editable), the task's response form, the decision. Approval waits out a
 * {UNDO_SECONDS}-second undo window (toast and panel both offer Undo). Keys: `a` approve,
 * `s` focus the feedback, Ctrl/⌘+Enter send back, `u` undo.
 */
function OutputReviewPanel({
  crew,
  executionId,
  pending,
  me,
  claimable = true,
  expectedOutput,
  taskName,
  onDone,
  onChanged,
  shortcuts = true,
}: {
  crew: string;
  executionId: string;
  pending: OpenReviewView;
  /** The signed-in person's e-mail: their approval and claim are shown as theirs. */
  me: string | null;
  /** A remote deployment's review is decided, not claimed or reassigned. */
  claimable?: boolean;
  expectedOutput?: string;
  /** The task's name in the crew; its id when not given. */
  taskName?: string;
  onDone: (message: string, decision: Decided) => void;
  /** A claim, release or reassignment changed the review. */
  onChanged?: () => void;
  /** Keyboard shortcuts are page-wide: only one panel on a page may have them. */
  shortcuts?: boolean;
}) {
  const queryClient = useQueryClient();
  const feedbackId = useId();
  const [feedback, setFeedback] = useState("");
  // The reviewer's own version of the output, once they choose to edit it.
  const [draft, setDraft] = useState<string | null>(null);
  const json = isJsonOutput(pending.output);
  const edited = draft !== null && draft !== pending.output ? draft : undefined;
  const [error, setError] = useState<{ text: string; conflict: boolean } | null>(null);
  const [sending, setSending] = useState<"approve" | "reject" | null>(null);
  const feedbackRef = useRef<HTMLTextAreaElement>(null);
  const key = approvalKey(executionId, pending.task_id, pending.attempt);
  const approvingAt = useScheduledApproval(key);
  const name = taskName ?? pending.task_id;
  const schema = pending.response_schema;
  const [answers, setAnswers] = useState<ResponseValues>({});
  const [missing, setMissing] = useState<string[]>([]);
  const approvedByMe = me !== null && pending.approvals.some((a) => a.reviewer === me);
  const heldByOther = pending.claimed_by !== null && pending.claimed_by !== me;

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
        !approve
          ? `Sent “${name}” back: it will run again with your feedback (attempt ${pending.attempt + 1}).`
          : recorded
            ? `Your approval of “${name}” is recorded${tally}; it waits for more approvals.`
            : answer.status === "waiting"
              ? `Approved “${name}”${tally}; the run still waits for its other reviews.`
              : `Approved “${name}”${editedOutput !== undefined ? " with your edits" : ""}${tally}: the run continues.`,
        !approve ? "sent_back" : recorded ? "recorded" : "approved",
      );
    } catch (err) {
      setSending(null);
      const conflict = err instanceof ApiError && err.problem.status === 409;
      const text = conflict
        ? `Someone else already decided on “${name}”, or the run moved on. ${err.message}`
        : `Could not send the decision: ${err instanceof Error ? err.message : String(err)}. Try again.`;
      setError({ text, conflict });
      // The panel may be gone by the time a deferred approval fails: say it where it is seen.
      if (approve) toast.error(text);
    }
  }

  // The response form, when the task has one: what is missing is said before anything is sent.
  function checkedAnswers(): ResponseValues | null | undefined {
    if (!schema) return undefined;
    const gaps = missingAnswers(schema, answers);
    setMissing(gaps);
    if (!gaps.length) return answers;
    setError({ text: `Fill in ${gaps.join(", ")} first.`, conflict: false });
    return null;
  }

  function approve() {
    if (sending || approvingAt || approvedByMe || heldByOther) return;
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
    scheduleApproval(key, () => void send(true, text, editedOutput, response));
    toast(
      editedOutput !== undefined ? `Approving “${name}” with your edits` : `Approving “${name}”`,
      {
        id: key,
        description: `Sends in ${UNDO_SECONDS} seconds.`,
        duration: UNDO_SECONDS * 1000,
        action: { label: "Undo", onClick: () => cancelApproval(key) },
      },
    );
  }

  function undo() {
    if (cancelApproval(key)) toast.dismiss(key);
  }

  function sendBack() {
    if (sending || approvingAt || heldByOther) return;
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
    const response = checkedAnswers();
    if (response === null) return;
    void send(false, feedback, undefined, response);
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

  const busy = sending !== null || approvingAt !== null;
  return (
    <section aria-label={`Review of ${name}`} className="grid gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="m-0 font-semibold text-base">Output of “{name}”</h2>
        <Badge tone={pending.attempt > 1 ? "warning" : "neutral"}>Attempt {pending.attempt}</Badge>
      </div>
      <ReviewOwnership
        crew={crew}
        executionId={executionId}
        review={pending}
        me={me}
        canAct={claimable}
        onChanged={() => {
          onChanged?.();
          void queryClient.invalidateQueries();
        }}
      />
      {heldByOther && (
        <Alert tone="info" title={`${pending.claimed_by} is reviewing this`}>
          You can read it; deciding waits until they release it or their claim runs out.
        </Alert>
      )}
      {approvedByMe && (
        <Alert tone="success" title="You approved this">
          It needs {pending.required_approvals - pending.approvals.length} more approval
          {pending.required_approvals - pending.approvals.length === 1 ? "" : "s"} from other
          reviewers before the run goes on.
        </Alert>
      )}
      {expectedOutput && (
        <p className="-mt-2 text-muted-foreground text-sm">
          <span className="font-medium">Expected:</span> {expectedOutput}
        </p>
      )}
      <div className="grid gap-4">
        {draft === null ? (
          <div className="min-w-0 rounded-lg border bg-background p-4 text-sm leading-6 [&_.markdown>:first-child]:mt-0 [&_.markdown>:last-child]:mb-0">
            <Markdown text={pending.output} />
          </div>
        ) : (
          <OutputEditor value={draft} onChange={setDraft} json={json} disabled={busy} />
        )}
        <div className="-mt-2 flex flex-wrap items-center gap-2">
          {draft === null ? (
            <Button size="sm" onClick={() => setDraft(pending.output)} disabled={busy}>
              <PencilLine aria-hidden />
              Edit output
            </Button>
          ) : (
            <Button size="sm" onClick={() => setDraft(null)} disabled={busy}>
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

      {approvingAt !== null && (
        <Alert tone="info" title={`Approving “${name}” in ${UNDO_SECONDS} seconds`}>
          <div className="flex flex-wrap items-center gap-2">
            <span>Undo keeps it waiting for review.</span>
            <Button size="sm" onClick={undo}>
              <Undo2 aria-hidden />
              Undo
            </Button>
          </div>
        </Alert>
      )}
      {sending && (
        <p role="status" className="text-muted-foreground text-sm">
          {sending === "approve" ? "Sending the approval…" : "Sending it back…"}
        </p>
      )}
      {error && <DecisionError error={error} onDismiss={() => setError(null)} />}

      {schema && (
        <ResponseForm
          schema={schema}
          values={answers}
          onChange={(v) => {
            setAnswers(v);
            if (missing.length) {
              const gaps = missingAnswers(schema, v);
              setMissing(gaps);
              // "Fill in … first" is no longer true once it is filled in.
              if (!gaps.length) setError(null);
            }
          }}
          disabled={busy}
          errors={missing}
        />
      )}
      <div className="grid gap-1.5">
        <label htmlFor={feedbackId} className="font-medium text-sm">
          Feedback
        </label>
        <Textarea
          id={feedbackId}
          ref={feedbackRef}
          rows={3}
          value={feedback}
          disabled={busy}
          placeholder="What should change? Needed to send it back; optional with an approval."
          onChange={(e) => setFeedback(e.target.value)}
        />
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="primary" onClick={approve} disabled={busy || approvedByMe || heldByOther}>
          <Check aria-hidden />
          {edited !== undefined ? "Approve edited" : "Approve"}
        </Button>
        <Button onClick={sendBack} disabled={busy || heldByOther}>
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
    </section>
  );
}
