import type { ExecutionEvent } from "@/lib/contract/status";

// The run as a trace: tasks → attempts → steps, each with a start and an end on one clock (ms),
// built from the event log alone so it grows live as events arrive (trace-model.ts builds it).

export type StepKind =
  | "thought"
  | "tool"
  | "answer"
  | "review"
  | "failed"
  | "remote"
  // An output check that passed (a guardrail), or one that sent the agent back (retry).
  | "check"
  | "retry"
  // Tools the agent went without (an MCP server down, a tool missing).
  | "warning"
  // Where a stop cut the task off: after its last step, by whom.
  | "stopped"
  // A fork's task taken from the run it forked (never run here).
  | "inherited";

export type TraceStep = {
  key: string;
  kind: StepKind;
  label: string;
  /** What the row shows when the label is long (the label is still read out and the title). */
  short?: string;
  taskId: string | null;
  attempt: number;
  start: number;
  /** null while the step is still going on (a tool call without its result, a pending review). */
  end: number | null;
  /** The events this step is made of, in order (a tool call and its result are one step). */
  events: ExecutionEvent[];
  /** A coworker's step: the key of the delegation call it was done in, once that call is known. */
  under?: string;
};

export type TraceAttempt = {
  attempt: number;
  start: number;
  end: number | null;
  steps: TraceStep[];
  output: string | null;
  /** The reviewer's decision on this attempt, if any. */
  review: { decision: "approve" | "reject"; feedback: string; reviewer: string } | null;
  /** Approved with an edit: the reviewer's text, a revision of its own after the agent's. */
  edit?: { output: string; reviewer: string; when?: "approving" | "forking" };
  /** "json" when the output is the task's structured output (output_json). */
  format: "json" | "text";
};

/** A task's output kept as a file of the run (output_file). */
export type TraceArtifact = { taskId: string; name: string; bytes: number; contentType: string };

export type TraceTask = {
  taskId: string;
  name: string;
  agent: string;
  status: string;
  start: number | null;
  end: number | null;
  attempts: TraceAttempt[];
  /** Times a failed guardrail or invalid JSON sent the agent back within an attempt. */
  retries: number;
};

export type Trace = {
  start: number;
  end: number | null;
  tasks: TraceTask[];
  /** Steps of no known task: a remote run's status changes and payloads. */
  loose: TraceStep[];
  /** Files the run's tasks produced, latest per name. */
  artifacts: TraceArtifact[];
};
