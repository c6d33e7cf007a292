import { type AGUIEvent, EventType, type JsonPatch } from "@ag-ui/core";
import { EventSchema } from "@ag-ui/core/schemas";
import type { ExecutionEvent, StatusResponse } from "@/lib/contract/status";
import { isRecord } from "@/lib/util/field";
import { reviewSentence } from "../review-sentence";
import { runAnswer } from "../runs";

// A run's event log as AG-UI events, for one AG-UI run (RUN_STARTED … RUN_FINISHED): each task a
// step, each agent answer a text message, each tool use a tool call, a flow's state as a snapshot
// and deltas; a run waiting for review finishes with an interrupt outcome the client answers.

// The events are AG-UI's own types (@ag-ui/core), and each is checked with its schema before it
// is sent (agUiData): what a client parses is what the protocol defines, not our reading of it.
export type AgUiEvent = AGUIEvent;

/** One event as an SSE `data:` line, checked against AG-UI's schema first. */
export const agUiData = (event: AgUiEvent) =>
  `data: ${JSON.stringify(EventSchema.parse(event))}\n\n`;

/** The interrupt id names the run and the review: a resume entry needs nothing else. */
const interruptId = (runId: string, taskId: string, attempt: number) =>
  `${runId}:${taskId}:${attempt}`;

export function parseInterruptId(id: string) {
  const [run, ...rest] = id.split(":");
  const attempt = Number(rest.pop());
  return { run: run ?? "", task: rest.join(":"), attempt };
}

type Review = StatusResponse["pending_human_inputs"][number];

/** The answer an interrupt takes: a verdict, and for a flow's feedback the outcome to take. */
function decisionSchema(review: Review) {
  const outcomes = review.feedback?.outcomes ?? [];
  return {
    type: "object",
    properties: {
      approved: { type: "boolean", description: "true accepts the output; false sends it back" },
      feedback: { type: "string", description: "What to change (with approved: false)" },
      edited_output: { type: "string", description: "Approve this text instead of the agent's" },
      ...(outcomes.length
        ? { outcome: { type: "string", enum: outcomes, description: "Where the flow goes next" } }
        : {}),
    },
    required: ["approved"],
  };
}

const reasonOf = (review: Review) =>
  review.kind === "tool_call"
    ? "tool_approval"
    : review.feedback
      ? "human_feedback"
      : "human_review";

const text = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v ?? null));

/** JSON Patch from one flow state to the next: top-level keys added, replaced or removed. */
function statePatch(from: Record<string, unknown>, to: Record<string, unknown>) {
  const path = (k: string) => `/${k.replaceAll("~", "~0").replaceAll("/", "~1")}`;
  const ops: JsonPatch = [];
  for (const [k, v] of Object.entries(to))
    if (!(k in from)) ops.push({ op: "add", path: path(k), value: v });
    else if (JSON.stringify(from[k]) !== JSON.stringify(v))
      ops.push({ op: "replace", path: path(k), value: v });
  for (const k of Object.keys(from)) if (!(k in to)) ops.push({ op: "remove", path: path(k) });
  return ops;
}

export class AgUiTranslator {
  private readonly steps = new Set<string>();
  private readonly calls = new Set<string>();
  private state: Record<string, unknown> | undefined;

  constructor(
    private readonly threadId: string,
    private readonly runId: string,
  ) {}

  start(run: StatusResponse): AgUiEvent[] {
    const events: AgUiEvent[] = [
      { type: EventType.RUN_STARTED, threadId: this.threadId, runId: this.runId },
    ];
    if (run.flow) {
      this.state = run.flow.state;
      events.push({ type: EventType.STATE_SNAPSHOT, snapshot: this.state });
    }
    return events;
  }

  /** The AG-UI events one event of the log stands for (often none). */
  event(e: ExecutionEvent, runId: string): AgUiEvent[] {
    const d = e.data;
    const id = `${runId}:${e.seq}`;
    switch (e.type) {
      case "task_started": {
        const step = e.task_id ?? "";
        if (!step || this.steps.has(step)) return [];
        this.steps.add(step);
        return [{ type: EventType.STEP_STARTED, stepName: step }];
      }
      case "task_completed":
      case "task_failed":
        return this.finishStep(e.task_id ?? "");
      case "answer": {
        const words = text(d.text);
        if (!words) return [];
        return [
          { type: EventType.TEXT_MESSAGE_START, messageId: id, role: "assistant" },
          { type: EventType.TEXT_MESSAGE_CONTENT, messageId: id, delta: words },
          { type: EventType.TEXT_MESSAGE_END, messageId: id },
        ];
      }
      case "tool_call": {
        const call = typeof d.call_id === "string" ? d.call_id : id;
        if (this.calls.has(call)) return [];
        this.calls.add(call);
        return [
          { type: EventType.TOOL_CALL_START, toolCallId: call, toolCallName: text(d.tool) },
          {
            type: EventType.TOOL_CALL_ARGS,
            toolCallId: call,
            delta: JSON.stringify(d.tool_input ?? {}),
          },
          { type: EventType.TOOL_CALL_END, toolCallId: call },
        ];
      }
      case "tool_result": {
        const call = typeof d.call_id === "string" ? d.call_id : id;
        return [
          {
            type: EventType.TOOL_CALL_RESULT,
            messageId: id,
            toolCallId: call,
            content: text(d.result),
            role: "tool",
          },
        ];
      }
      case "flow_method_finished": {
        if (!isRecord(d.state)) return [];
        const delta = statePatch(this.state ?? {}, d.state);
        this.state = d.state;
        return delta.length ? [{ type: EventType.STATE_DELTA, delta }] : [];
      }
      default:
        return [];
    }
  }

  /** The run's last events: success, a failure, a stop, or an interrupt for its review. */
  finish(run: StatusResponse): AgUiEvent[] {
    const open = [...this.steps].flatMap((s) => this.finishStep(s));
    const end = { threadId: this.threadId, runId: this.runId };
    if (run.status === "error")
      return [...open, { type: EventType.RUN_ERROR, message: runAnswer(run), code: "run_failed" }];
    if (run.status === "cancelled")
      return [...open, { type: EventType.RUN_FINISHED, ...end, outcome: { type: "cancelled" } }];
    if (run.status === "completed")
      return [
        ...open,
        {
          type: EventType.RUN_FINISHED,
          ...end,
          result: run.result ?? "",
          outcome: { type: "success" },
        },
      ];
    const interrupts = run.pending_human_inputs.map((r) => ({
      id: interruptId(run.kickoff_id, r.task_id, r.attempt),
      reason: reasonOf(r),
      message: r.feedback?.message ?? reviewSentence(r),
      responseSchema: decisionSchema(r),
      ...(r.deadline_at ? { expiresAt: r.deadline_at } : {}),
      metadata: { kickoff_id: run.kickoff_id, task_id: r.task_id, output: r.output },
    }));
    return [
      ...open,
      { type: EventType.RUN_FINISHED, ...end, outcome: { type: "interrupt", interrupts } },
    ];
  }

  private finishStep(step: string): AgUiEvent[] {
    if (!this.steps.delete(step)) return [];
    return [{ type: EventType.STEP_FINISHED, stepName: step }];
  }
}
