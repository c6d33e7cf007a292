import crypto from "node:crypto";
import { EXECUTION_STATUSES } from "@/lib/contract/states";
import type { StatusResponse } from "@/lib/contract/status";
import { A2A_STATE } from "@/lib/webhooks/a2a-push";
import { isFinished, reviewMessage, runAnswer } from "../runs";

// A run as an A2A 1.0 Task (ProtoJSON): its id the kickoff_id, its state the run's status, the
// review it waits on the input-required status message, its result an artifact.

const STATE = A2A_STATE;

export const stateOf = (run: StatusResponse) => STATE[run.status];

/** Our status for an A2A TaskState name (ListTasks' filter). */
export const statusNamed = (state: string) => EXECUTION_STATUSES.find((k) => STATE[k] === state);

/** Terminal, or interrupted (waiting on a person): where a blocking send or a stream stops. */
export const settled = (run: StatusResponse) =>
  isFinished(run) || run.status === "pending_human_input";

const contextOf = (run: StatusResponse) =>
  typeof run.meta.a2a_context === "string" ? run.meta.a2a_context : run.kickoff_id;

function agentMessage(run: StatusResponse, text: string) {
  return {
    messageId: crypto.randomUUID(),
    contextId: contextOf(run),
    taskId: run.kickoff_id,
    role: "ROLE_AGENT",
    parts: [{ text }],
  };
}

function statusOf(run: StatusResponse) {
  const review = run.pending_human_inputs[0];
  const text =
    run.status === "pending_human_input"
      ? reviewMessage(run)
      : isFinished(run) && run.status !== "completed"
        ? runAnswer(run)
        : null;
  return {
    state: stateOf(run),
    ...(text
      ? {
          message: {
            ...agentMessage(run, text),
            ...(review
              ? {
                  metadata: {
                    review: { task_id: review.task_id, kind: review.kind, attempt: review.attempt },
                  },
                }
              : {}),
          },
        }
      : {}),
    timestamp: run.updated_at,
  };
}

/** The run's result: one artifact, text and (for a crew) the tasks' outputs as data. */
function resultArtifact(run: StatusResponse) {
  return {
    artifactId: `${run.kickoff_id}:result`,
    name: "result",
    description: `The result of '${run.crew}'`,
    parts: [
      { text: run.result ?? "", mediaType: "text/plain" },
      {
        data: {
          kickoff_id: run.kickoff_id,
          tasks: run.tasks.map((t) => ({ task_id: t.task_id, output: t.output })),
        },
        mediaType: "application/json",
      },
    ],
  };
}

export function taskOf(run: StatusResponse) {
  return {
    id: run.kickoff_id,
    contextId: contextOf(run),
    status: statusOf(run),
    ...(run.status === "completed" ? { artifacts: [resultArtifact(run)] } : {}),
    metadata: { crew: run.crew, status: run.status, kickoff_id: run.kickoff_id },
  };
}

export function statusUpdateOf(run: StatusResponse) {
  return {
    statusUpdate: {
      taskId: run.kickoff_id,
      contextId: contextOf(run),
      status: statusOf(run),
      metadata: { status: run.status },
    },
  };
}

export function artifactUpdateOf(run: StatusResponse) {
  return {
    artifactUpdate: {
      taskId: run.kickoff_id,
      contextId: contextOf(run),
      artifact: resultArtifact(run),
      lastChunk: true,
    },
  };
}
