"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Ban, Check, PencilLine, Undo2, Wrench, X } from "lucide-react";
import { useId, useState } from "react";
import { JsonBlock } from "@/components/run/json-block";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/input";
import { toast } from "@/components/ui/toast";
import { ApiError, crewApi } from "@/lib/api/client";
import type { OpenReviewView } from "@/lib/contract/reviews";
import { errorMessage } from "@/lib/errors";
import { DecisionError } from "./decision-error";
import {
  approvalKey,
  cancelApproval,
  scheduleApproval,
  UNDO_SECONDS,
  useScheduledApproval,
} from "./deferred-approval";
import { ReviewOwnership } from "./review-ownership";
import type { Decided } from "./review-panel";

type ToolCall = NonNullable<OpenReviewView["tool_calls"]>[number];

/**
 * Tool calls an agent asked to make that wait for a person (requires_approval): each with its
 * tool, where the tool comes from, and its exact arguments. Approve runs it (after the undo
 * window), with arguments edited as JSON if need be; Refuse tells the agent why instead.
 */
export function ToolCallPanel({
  crew,
  executionId,
  pending,
  me,
  claimable = true,
  taskName,
  onDone,
  onChanged,
}: {
  crew: string;
  executionId: string;
  pending: OpenReviewView;
  me: string | null;
  claimable?: boolean;
  taskName?: string;
  onDone: (message: string, decision: Decided) => void;
  onChanged?: () => void;
}) {
  const queryClient = useQueryClient();
  const reasonId = useId();
  const [reason, setReason] = useState("");
  const [error, setError] = useState<{ text: string; conflict: boolean } | null>(null);
  const name = taskName ?? pending.task_id;
  const calls = pending.tool_calls ?? [];
  const waiting = calls.filter((c) => !c.decision);
  const heldByOther = pending.claimed_by !== null && pending.claimed_by !== me;

  async function send(call: ToolCall, approve: boolean, text: string, edited?: unknown) {
    setError(null);
    try {
      const answer = await crewApi(crew).resume({
        execution_id: executionId,
        task_id: pending.task_id,
        call_id: call.call_id,
        human_feedback: text,
        is_approve: approve,
        ...(edited !== undefined ? { edited_arguments: edited as Record<string, unknown> } : {}),
      });
      setReason("");
      const rest = waiting.length - 1;
      onDone(
        approve
          ? `Approved ${call.tool}${edited !== undefined ? " with your edits" : ""}: ${rest ? `${rest} more call${rest === 1 ? "" : "s"} to decide.` : answer.status === "waiting" ? "the run still waits for its other reviews." : "it runs and the agent goes on."}`
          : `Refused ${call.tool}: the agent goes on without it${rest ? ` (${rest} more call${rest === 1 ? "" : "s"} to decide)` : ""}.`,
        rest ? "recorded" : approve ? "approved" : "sent_back",
      );
      void queryClient.invalidateQueries();
    } catch (err) {
      const conflict = err instanceof ApiError && err.problem.status === 409;
      const text = conflict
        ? `Someone else already decided on this call, or the run moved on. ${err.message}`
        : `Could not send the decision: ${err instanceof Error ? err.message : String(err)}`;
      setError({ text, conflict });
      if (approve) toast.error(text);
    }
  }

  return (
    <section aria-label={`Tool calls of ${name} awaiting approval`} className="grid gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="m-0 font-semibold text-base">
          {calls.length === 1 ? "A tool call" : `${calls.length} tool calls`} of “{name}” to approve
        </h2>
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
      <p className="m-0 text-muted-foreground text-sm">
        The agent stopped before running {calls.length === 1 ? "this call" : "these calls"}. Approve
        to run it as shown (or with your edits), or refuse: the agent reads your reason as the
        call's result and goes on without it.
      </p>
      {calls.map((call) => (
        <CallCard
          key={call.call_id}
          call={call}
          disabled={heldByOther}
          approvalKeyFor={`${approvalKey(executionId, pending.task_id, pending.attempt)}:${call.call_id}`}
          onApprove={(edited) => {
            const text = reason;
            return () => void send(call, true, text, edited);
          }}
          onRefuse={() => {
            if (!reason.trim()) {
              setError({
                text: "Say why in the reason field: the agent reads it instead of a result.",
                conflict: false,
              });
              document.getElementById(reasonId)?.focus();
              return;
            }
            void send(call, false, reason);
          }}
          onInvalid={(text) => setError({ text, conflict: false })}
        />
      ))}
      {error && <DecisionError error={error} onDismiss={() => setError(null)} />}
      {waiting.length > 0 && (
        <div className="grid gap-1.5">
          <label htmlFor={reasonId} className="font-medium text-sm">
            Reason
          </label>
          <Textarea
            id={reasonId}
            rows={2}
            value={reason}
            disabled={heldByOther}
            placeholder="Needed to refuse: the agent reads it as the call's result. Optional with an approval."
            onChange={(e) => setReason(e.target.value)}
          />
        </div>
      )}
    </section>
  );
}

const SOURCE: Record<string, string> = { builtin: "Built-in", tracker: "Tracker", mcp: "MCP" };

function CallCard({
  call,
  disabled,
  approvalKeyFor,
  onApprove,
  onRefuse,
  onInvalid,
}: {
  call: ToolCall;
  disabled: boolean;
  approvalKeyFor: string;
  /** The send to schedule for an approval, with the edited arguments if any. */
  onApprove: (edited?: unknown) => () => void;
  onRefuse: () => void;
  onInvalid: (text: string) => void;
}) {
  const editorId = useId();
  const original = JSON.stringify(call.arguments, null, 2) ?? "{}";
  const [draft, setDraft] = useState<string | null>(null);
  const approvingAt = useScheduledApproval(approvalKeyFor);
  const parsed = draft === null ? { ok: true as const, value: undefined } : parseArguments(draft);
  const edited =
    parsed.ok &&
    parsed.value !== undefined &&
    JSON.stringify(parsed.value) !== JSON.stringify(call.arguments)
      ? parsed.value
      : undefined;
  const decision = call.decision;

  function approve() {
    if (!parsed.ok) {
      onInvalid(`The edited arguments are not sent: ${parsed.error}`);
      return;
    }
    scheduleApproval(approvalKeyFor, onApprove(edited));
    toast(`Running ${call.tool}${edited !== undefined ? " with your edits" : ""}`, {
      id: approvalKeyFor,
      description: `Approves in ${UNDO_SECONDS} seconds.`,
      duration: UNDO_SECONDS * 1000,
      action: { label: "Undo", onClick: () => cancelApproval(approvalKeyFor) },
    });
  }

  return (
    <article
      aria-label={`Call to ${call.tool}`}
      className="grid min-w-0 gap-3 rounded-lg border bg-background p-4"
    >
      <div className="flex flex-wrap items-center gap-2">
        <Wrench aria-hidden className="size-4 text-muted-foreground" />
        <code className="font-mono font-semibold text-sm">{call.tool}</code>
        {call.source && (
          <Badge tone="neutral">
            {SOURCE[call.source] ?? call.source}
            {call.server ? ` · ${call.server}` : ""}
          </Badge>
        )}
        {call.writes && <Badge tone="warning">Changes things</Badge>}
        {decision && (
          <Badge tone={decision.approved ? "success" : "danger"} className="ml-auto">
            {decision.approved ? "Approved" : "Refused"} by {decision.reviewer}
          </Badge>
        )}
      </div>
      {draft === null ? (
        <JsonBlock
          label={decision?.edited ? "Arguments (edited)" : "Arguments"}
          value={decision ? decision.arguments : call.arguments}
        />
      ) : (
        <div className="grid gap-1.5">
          <label htmlFor={editorId} className="font-medium text-muted-foreground text-xs">
            Arguments (JSON)
          </label>
          <Textarea
            id={editorId}
            rows={Math.min(16, Math.max(4, draft.split("\n").length + 1))}
            className="font-mono text-xs"
            spellCheck={false}
            value={draft}
            aria-invalid={!parsed.ok}
            onChange={(e) => setDraft(e.target.value)}
          />
          {!parsed.ok && (
            <p role="alert" className="m-0 text-tone-danger-foreground text-xs">
              {parsed.error}
            </p>
          )}
        </div>
      )}
      {!decision && (
        <div className="flex flex-wrap items-center gap-2">
          <Button
            variant="primary"
            onClick={approve}
            disabled={disabled || approvingAt !== null || !parsed.ok}
          >
            <Check aria-hidden />
            {edited !== undefined ? "Approve edited" : "Approve"}
          </Button>
          <Button onClick={onRefuse} disabled={disabled || approvingAt !== null}>
            <Ban aria-hidden />
            Refuse
          </Button>
          {draft === null ? (
            <Button
              size="sm"
              variant="ghost"
              onClick={() => setDraft(original)}
              disabled={disabled}
            >
              <PencilLine aria-hidden />
              Edit arguments
            </Button>
          ) : (
            <Button size="sm" variant="ghost" onClick={() => setDraft(null)}>
              <X aria-hidden />
              Discard edits
            </Button>
          )}
          {approvingAt !== null && (
            <Button size="sm" onClick={() => cancelApproval(approvalKeyFor)} className="ml-auto">
              <Undo2 aria-hidden />
              Undo
            </Button>
          )}
        </div>
      )}
    </article>
  );
}

function parseArguments(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    const value = JSON.parse(text);
    if (typeof value !== "object" || value === null || Array.isArray(value))
      return { ok: false, error: 'The arguments are a JSON object: { "name": value, … }.' };
    return { ok: true, value };
  } catch (err) {
    return { ok: false, error: `Not valid JSON: ${errorMessage(err)}` };
  }
}
