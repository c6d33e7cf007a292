import crypto from "node:crypto";
import type { SendMessageRequest } from "@a2a-js/sdk";
import {
  RequestMalformedError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from "@a2a-js/sdk/errors";
import { can } from "@/lib/auth/roles";
import type { StatusResponse } from "@/lib/contract/status";
import { AppError } from "@/lib/errors";
import { inputsFromMessage } from "../inputs";
import {
  decideReview,
  decisionFromData,
  decisionFromText,
  isFinished,
  readRun,
  startableCrew,
  startRun,
} from "../runs";
import { type Caller, contentOf } from "./params";
import { addPush } from "./push";
import { pushOf } from "./push-methods";

// What a message does: a new message starts a run; one on a task waiting for input is the
// review decision.

/** A run of this endpoint's crew (when it has one) that the caller may see. */
export async function ownRun(caller: Caller, id: string): Promise<StatusResponse> {
  const run = await readRun(caller.db, caller.principal, id, caller.crew?.slug).catch((err) => {
    if (err instanceof AppError && err.status === 404) return undefined;
    throw err;
  });
  if (!run || (caller.crew && run.crew !== caller.crew.slug))
    throw new TaskNotFoundError(`Task not found: ${id}`);
  return run;
}

/** The run a message starts, or the task it answers as it stands after the answer. */
export async function accept(send: SendMessageRequest, caller: Caller): Promise<StatusResponse> {
  const { message } = send;
  if (!message) throw new RequestMalformedError("Invalid params: message is required");
  const config = send.configuration?.taskPushNotificationConfig;
  const push = config ? await pushOf(config) : undefined;
  const content = contentOf(message);
  if (message.taskId) {
    const run = await ownRun(caller, message.taskId);
    if (isFinished(run))
      throw new UnsupportedOperationError(
        `Task ${run.kickoff_id} has finished (${run.status}); start a new task without taskId.`,
      );
    if (run.status !== "pending_human_input")
      throw new UnsupportedOperationError(
        `Task ${run.kickoff_id} is not waiting for input (${run.status}); follow it with GetTask or SubscribeToTask.`,
      );
    if (push) await addPush(caller.db, caller.principal, run.kickoff_id, push);
    // Only a caller allowed to review decides; anyone else's reply leaves it to the inbox.
    if (!can(caller.principal, "review")) return run;
    const decision = content.data ? decisionFromData(content.data) : decisionFromText(content.text);
    await decideReview(caller.db, caller.principal, run, decision);
    return readRun(caller.db, caller.principal, run.kickoff_id, run.crew);
  }
  const slug = caller.crew?.slug ?? crewNamed(message.metadata ?? send.metadata);
  const crew = startableCrew(caller.principal, slug);
  const id = await startRun({
    db: caller.db,
    crew,
    principal: caller.principal,
    protocol: "a2a",
    inputs: inputsFromMessage(crew, content),
    // An empty contextId is ProtoJSON's absent one: the task starts a context of its own.
    meta: { a2a_context: message.contextId || crypto.randomUUID(), a2a_message: message.messageId },
    ...(push ? { pushes: [push] } : {}),
  });
  return readRun(caller.db, caller.principal, id, crew.slug);
}

function crewNamed(metadata: Record<string, unknown> | undefined): string {
  const crew = metadata?.crew;
  if (typeof crew === "string" && crew) return crew;
  throw new RequestMalformedError(
    "Name the crew to run: send to /api/a2a/{crew}, or set message.metadata.crew (GetExtendedAgentCard lists them).",
  );
}
