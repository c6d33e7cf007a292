import crypto from "node:crypto";
import {
  type Artifact,
  type Message,
  type Part,
  Role,
  type StreamResponse,
  type Task,
  type TaskState,
  type TaskStatus,
  taskStateFromJSON,
} from "@a2a-js/sdk";
import { EXECUTION_STATUSES, type ExecutionStatus } from "@/lib/contract/states";
import type { StatusResponse } from "@/lib/contract/status";
import { isFinished, reviewMessage, runAnswer } from "../runs";
import { A2A_STATE } from "./push-payloads";

// A run as an A2A 1.0 Task, in the SDK's types (its toJSON writes the ProtoJSON): its id the
// kickoff_id, its state the run's status, the review it waits on the input-required status
// message, its result an artifact.

/** The TaskState of a run status, through the one name table the pushes use too. */
export const taskStateOf = (status: ExecutionStatus): TaskState =>
  taskStateFromJSON(A2A_STATE[status]);

export const stateOf = (run: StatusResponse) => taskStateOf(run.status);

/** Our status for a TaskState (ListTasks' filter); none for UNSPECIFIED or one we never use. */
export const statusOfState = (state: TaskState) =>
  EXECUTION_STATUSES.find((k) => taskStateOf(k) === state);

/** Terminal, or interrupted (waiting on a person): where a blocking send or a stream stops. */
export const settled = (run: StatusResponse) =>
  isFinished(run) || run.status === "pending_human_input";

const contextOf = (run: StatusResponse) =>
  typeof run.meta.a2a_context === "string" ? run.meta.a2a_context : run.kickoff_id;

const textPart = (text: string, mediaType = ""): Part => ({
  content: { $case: "text", value: text },
  metadata: undefined,
  filename: "",
  mediaType,
});

function agentMessage(run: StatusResponse, text: string, metadata?: object): Message {
  return {
    messageId: crypto.randomUUID(),
    contextId: contextOf(run),
    taskId: run.kickoff_id,
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata: metadata ? { ...metadata } : undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function statusOf(run: StatusResponse): TaskStatus {
  const review = run.pending_human_inputs[0];
  const text =
    run.status === "pending_human_input"
      ? reviewMessage(run)
      : isFinished(run) && run.status !== "completed"
        ? runAnswer(run)
        : null;
  const metadata = review
    ? { review: { task_id: review.task_id, kind: review.kind, attempt: review.attempt } }
    : undefined;
  return {
    state: stateOf(run),
    message: text ? agentMessage(run, text, metadata) : undefined,
    timestamp: run.updated_at,
  };
}

/** The run's result: one artifact, text and (for a crew) the tasks' outputs as data. */
function resultArtifact(run: StatusResponse): Artifact {
  const data = {
    kickoff_id: run.kickoff_id,
    tasks: run.tasks.map((t) => ({ task_id: t.task_id, output: t.output })),
  };
  return {
    artifactId: `${run.kickoff_id}:result`,
    name: "result",
    description: `The result of '${run.crew}'`,
    parts: [
      textPart(run.result ?? "", "text/plain"),
      {
        content: { $case: "data", value: data },
        metadata: undefined,
        filename: "",
        mediaType: "application/json",
      },
    ],
    metadata: undefined,
    extensions: [],
  };
}

export function taskOf(run: StatusResponse): Task {
  return {
    id: run.kickoff_id,
    contextId: contextOf(run),
    status: statusOf(run),
    artifacts: run.status === "completed" ? [resultArtifact(run)] : [],
    history: [],
    metadata: { crew: run.crew, status: run.status, kickoff_id: run.kickoff_id },
  };
}

export const taskEvent = (run: StatusResponse): StreamResponse => ({
  payload: { $case: "task", value: taskOf(run) },
});

export const statusUpdateOf = (run: StatusResponse): StreamResponse => ({
  payload: {
    $case: "statusUpdate",
    value: {
      taskId: run.kickoff_id,
      contextId: contextOf(run),
      status: statusOf(run),
      metadata: { status: run.status },
    },
  },
});

export const artifactUpdateOf = (run: StatusResponse): StreamResponse => ({
  payload: {
    $case: "artifactUpdate",
    value: {
      taskId: run.kickoff_id,
      contextId: contextOf(run),
      artifact: resultArtifact(run),
      append: false,
      lastChunk: true,
      metadata: undefined,
    },
  },
});
