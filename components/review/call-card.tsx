"use client";

import { Ban, Check, PencilLine, Undo2, Wrench, X } from "lucide-react";
import { useId, useState } from "react";
import { JsonBlock } from "@/components/run/json-block";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/input";
import type { OpenReviewView } from "@/lib/contract/reviews";
import { editedArguments, editorRows, type ParsedArguments, parseDraft } from "./call-arguments";
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
  onApprove: (edited?: Record<string, unknown>) => () => void;
  onRefuse: () => void;
  onInvalid: (text: string) => void;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const approvingAt = useScheduledApproval(approvalKeyFor);
  const parsed = parseDraft(draft, call.input_schema);
  const edited = editedArguments(parsed, call.arguments);
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
      <CallTitle call={call} />
      {draft === null ? (
        <JsonBlock
          label={decision?.edited ? "Arguments (edited)" : "Arguments"}
          value={decision ? decision.arguments : call.arguments}
        />
      ) : (
        <ArgumentsEditor draft={draft} parsed={parsed} onChange={setDraft} />
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
          <EditToggle
            editing={draft !== null}
            disabled={disabled}
            onEdit={() => setDraft(JSON.stringify(call.arguments, null, 2) ?? "{}")}
            onDiscard={() => setDraft(null)}
          />
          {approvingAt !== null && <UndoApproval tool={call.tool} approvalKey={approvalKeyFor} />}
        </div>
      )}
    </article>
  );
}

/** The tool, where it comes from, whether it changes things, and who decided. */
function CallTitle({ call }: { call: ToolCall }) {
  const decision = call.decision;
  return (
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
  );
}

function ArgumentsEditor({
  draft,
  parsed,
  onChange,
}: {
  draft: string;
  parsed: ParsedArguments;
  onChange: (draft: string) => void;
}) {
  const editorId = useId();
  return (
    <div className="grid gap-1.5">
      <label htmlFor={editorId} className="font-medium text-muted-foreground text-xs">
        Arguments (JSON)
      </label>
      <Textarea
        id={editorId}
        rows={editorRows(draft)}
        className="font-mono text-xs"
        spellCheck={false}
        value={draft}
        aria-invalid={!parsed.ok}
        onChange={(e) => onChange(e.target.value)}
      />
      {!parsed.ok && (
        <p role="alert" className="m-0 text-tone-danger-foreground text-xs">
          {parsed.error}
        </p>
      )}
    </div>
  );
}

function EditToggle({
  editing,
  disabled,
  onEdit,
  onDiscard,
}: {
  editing: boolean;
  disabled: boolean;
  onEdit: () => void;
  onDiscard: () => void;
}) {
  return editing ? (
    <Button size="sm" variant="ghost" onClick={onDiscard}>
      <X aria-hidden />
      Discard edits
    </Button>
  ) : (
    <Button size="sm" variant="ghost" onClick={onEdit} disabled={disabled}>
      <PencilLine aria-hidden />
      Edit arguments
    </Button>
  );
}

/** The scheduled approval, said once, beside the way to take it back. */
function UndoApproval({ tool, approvalKey }: { tool: string; approvalKey: string }) {
  return (
    <span className="ml-auto flex items-center gap-2">
      <span role="status" className="text-muted-foreground text-sm">
        Runs {tool} in {UNDO_SECONDS} seconds
      </span>
      <Button size="sm" onClick={() => cancelApproval(approvalKey)}>
        <Undo2 aria-hidden />
        Undo
      </Button>
    </span>
  );
}
