"use client";

import { X } from "lucide-react";
import Link from "next/link";
import { type ReactNode, useEffect } from "react";
import { isJsonOutput } from "@/components/review/json-output";
import { Button } from "@/components/ui/button";
import { formatDuration } from "@/lib/format/duration";
import { shortId } from "@/lib/format/id";
import { DETAIL_PANE } from "./detail-pane";
import { JsonBlock } from "./json-block";
import { LazyMarkdown } from "./lazy-markdown";
import type { TaskWithUsage } from "./run-types";
import { CHECK_EVENTS, CheckBody, ReviewVotes, retryText } from "./step-bodies";
import { AttemptBody, Facts, TaskBody, usageText } from "./task-body";
import type { Trace, TraceStep } from "./trace-types";
import type { Selection } from "./waterfall-model";

/** An answer as the agent gave it: JSON (bare or fenced) as a block, prose as Markdown. */
function AnswerBody({ text }: { text: string }) {
  const json = /^```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/i.exec(text.trim())?.[1] ?? text.trim();
  if (isJsonOutput(json)) return <JsonBlock label="Answer" value={JSON.parse(json)} />;
  return <LazyMarkdown text={text} />;
}

const offset = (ms: number) => `+${formatDuration(ms / 1000)}`;

function StepBody({ step, start, now }: { step: TraceStep; start: number; now: number }) {
  const [first, second] = step.events;
  const d = first?.data ?? {};
  const usage = (step.events.find((e) => e.data.usage)?.data.usage ?? undefined) as
    | Parameters<typeof usageText>[0]
    | undefined;
  const model = step.events.find((e) => typeof e.data.model === "string")?.data.model as
    | string
    | undefined;
  const isCheck = CHECK_EVENTS.has(first?.type ?? "");
  return (
    <>
      <Facts
        items={[
          ["Started", offset(step.start - start)],
          [
            step.end === null ? (step.kind === "review" ? "Waiting for" : "So far") : "Took",
            // A stop, or a task taken from another run, is a moment, not a span.
            step.kind === "stopped" || step.kind === "inherited"
              ? null
              : formatDuration(((step.end ?? now) - step.start) / 1000),
          ],
          ["Attempt", step.attempt > 1 ? String(step.attempt) : null],
          ["Model", model],
          ["Tokens", usageText(usage)],
          ["Retry", isCheck ? retryText(d) : null],
        ]}
      />
      {step.kind === "thought" && (
        <p className="whitespace-pre-wrap break-words text-sm leading-6">{String(d.text ?? "")}</p>
      )}
      {step.kind === "answer" && <AnswerBody text={String(d.text ?? "")} />}
      {step.kind === "tool" && (
        <>
          <JsonBlock label="Input" value={d.tool_input ?? null} />
          {second ? (
            <JsonBlock
              label={second.data.is_error ? "Error" : "Result"}
              value={second.data.result ?? null}
            />
          ) : (
            <p className="text-muted-foreground text-sm">Waiting for the tool's result…</p>
          )}
        </>
      )}
      {step.kind === "review" && <ReviewVotes events={step.events.slice(1)} />}
      {isCheck ? (
        <CheckBody data={d} />
      ) : (
        step.kind === "failed" && <p className="text-sm">{String(d.error ?? "")}</p>
      )}
      {step.kind === "warning" && <p className="text-sm">{String(d.message ?? "")}</p>}
      {step.kind === "inherited" && (
        <p className="text-sm">
          Not run here: taken from{" "}
          <Link href={String(d.from)} className="font-mono text-link text-xs hover:underline">
            {shortId(String(d.from))}
          </Link>
          , the run this one forked{d.edited ? `, and edited by ${String(d.by)} first` : ""}.
        </p>
      )}
      {step.kind === "stopped" && (
        <p className="text-sm">
          The run was stopped here{d.stopped_by ? ` by ${String(d.stopped_by)}` : ""}
          {d.reason ? `: ${String(d.reason)}` : "."}
        </p>
      )}
      {step.kind === "remote" && <JsonBlock label="Payload" value={d.payload ?? d.raw ?? d} />}
    </>
  );
}

function findStep(trace: Trace, key: string): TraceStep | undefined {
  for (const s of trace.loose) if (s.key === key) return s;
  for (const t of trace.tasks)
    for (const a of t.attempts) for (const s of a.steps) if (s.key === key) return s;
  return undefined;
}

/** A step's title, and above it its task (and attempt, when there are several). */
export function stepHeading(trace: Trace, step: TraceStep) {
  const task = trace.tasks.find((t) => t.taskId === step.taskId);
  const title = step.kind === "tool" ? `Tool: ${step.label}` : step.label;
  const kicker = [
    task?.name ?? "Run",
    task && task.attempts.length > 1 ? `attempt ${step.attempt}` : null,
  ]
    .filter(Boolean)
    .join(" · ");
  return { title, kicker };
}

/** Esc closes the detail, unless it is someone typing (a review's feedback, say). */
function useEscapeToClose(active: boolean, onClose: () => void) {
  useEffect(() => {
    if (!active) return;
    const onKey = (e: KeyboardEvent) => {
      const t = e.target instanceof Element ? e.target : null;
      if (e.key !== "Escape" || t?.closest("input, textarea, select, [contenteditable]")) return;
      onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [active, onClose]);
}

/** What the selected task, attempt or step did, in full. */
export function StepDetail({
  trace,
  selection,
  tasks,
  now,
  onClose,
  empty,
  fork,
}: {
  trace: Trace;
  selection: Selection | null;
  tasks: TaskWithUsage[];
  now: number;
  onClose: () => void;
  empty: ReactNode;
  /** Given when this run's tasks may be forked from (a local crew's run, by someone who may start). */
  fork?: { crew: string; runId: string; path?: string[] };
}) {
  useEscapeToClose(selection !== null, onClose);
  let title = "";
  let kicker = "";
  let body: ReactNode = null;
  if (selection?.type === "step") {
    const step = findStep(trace, selection.key);
    if (step) {
      ({ title, kicker } = stepHeading(trace, step));
      body = <StepBody step={step} start={trace.start} now={now} />;
    }
  } else if (selection) {
    const task = trace.tasks.find((t) => t.taskId === selection.taskId);
    if (task && selection.type === "task") {
      title = task.name;
      kicker = "Task";
      body = (
        <TaskBody
          task={task}
          status={tasks.find((t) => t.task_id === task.taskId)}
          tasks={tasks}
          fork={fork}
          now={now}
        />
      );
    } else if (task && selection.type === "attempt") {
      const attempt = task.attempts.find((a) => a.attempt === selection.attempt);
      if (attempt) {
        title = `Attempt ${attempt.attempt}`;
        kicker = task.name;
        body = <AttemptBody attempt={attempt} />;
      }
    }
  }
  return (
    <aside aria-labelledby="detail-title" data-testid="step-detail" className={DETAIL_PANE}>
      {body ? (
        <>
          <div className="flex items-start justify-between gap-2">
            <div className="grid min-w-0 gap-0.5">
              <p className="text-muted-foreground text-xs">{kicker}</p>
              <h2 id="detail-title" className="m-0 break-words font-semibold text-base">
                {title}
              </h2>
            </div>
            <Button variant="ghost" size="icon" aria-label="Close detail" onClick={onClose}>
              <X aria-hidden />
            </Button>
          </div>
          {body}
        </>
      ) : (
        empty
      )}
    </aside>
  );
}
