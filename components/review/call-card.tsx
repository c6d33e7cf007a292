"use client";

import { Ban, Check, PencilLine, Undo2, Wrench, X } from "lucide-react";
import { useId, useState } from "react";
import { jsonProblem } from "@/components/json-problem";
import { JsonBlock } from "@/components/run/json-block";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/input";
import type { OpenReviewView } from "@/lib/contract/reviews";
import { argumentProblems } from "./argument-check";
import {
  cancelApproval,
  scheduleApproval,
  UNDO_SECONDS,
  useScheduledApproval,
} from "./deferred-approval";

export type ToolCall = NonNullable<OpenReviewView["tool_calls"]>[number];

const SOURCE: Record<string, string> = { builtin: "Built-in", tracker: "Tracker", mcp: "MCP" };

/**
 * One tool call waiting for a person: the tool, where it comes from, its exact arguments (editable
 * as JSON), Approve (after the undo window), Refuse, and who decided once someone has.
 */
export function CallCard({
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
  const parsed =
    draft === null
      ? { ok: true as const, value: undefined }
      : parseArguments(draft, call.input_schema);
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
    // One confirmation: the card says when it runs, beside its Undo; no toast.
    scheduleApproval(approvalKeyFor, onApprove(edited));
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
            <span className="ml-auto flex items-center gap-2">
              <span role="status" className="text-muted-foreground text-sm">
                Runs {call.tool} in {UNDO_SECONDS} seconds
              </span>
              <Button size="sm" onClick={() => cancelApproval(approvalKeyFor)}>
                <Undo2 aria-hidden />
                Undo
              </Button>
            </span>
          )}
        </div>
      )}
    </article>
  );
}

/** The edited arguments, or why they cannot be sent: not JSON, or not what the tool takes. */
function parseArguments(
  text: string,
  schema: Record<string, unknown>,
): { ok: true; value: unknown } | { ok: false; error: string } {
  const notJson = jsonProblem(text);
  if (notJson) return { ok: false, error: notJson };
  const value: unknown = JSON.parse(text);
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { ok: false, error: 'The arguments are a JSON object: { "name": value, … }.' };
  const problems = argumentProblems(value, schema);
  if (problems.length) return { ok: false, error: problems.join(" ") };
  return { ok: true, value };
}
