import crypto from "node:crypto";
import type { z } from "zod";
import { can } from "@/lib/auth/roles";
import type { StatusResponse } from "@/lib/contract/status";
import { AppError } from "@/lib/errors";
import { acquireStreamSlot } from "@/lib/http/rate-limit";
import { readJsonBody } from "@/lib/http/read-json";
import { followRun } from "../follow";
import { inStreamSlot } from "../held";
import { inputsFromMessage } from "../inputs";
import {
  cancelRun,
  decideReview,
  decisionFromData,
  decisionFromText,
  isFinished,
  protocolRuns,
  readRun,
  startableCrew,
  startableCrews,
  startRun,
} from "../runs";
import { A2A_VERSION, hostCard } from "./card";
import { asRpcError, CODES, paramsOf, RpcError, reply, rpcErrorResponse } from "./errors";
import {
  type Caller,
  contentOf,
  ListTasksParams,
  type RpcId,
  RpcRequest,
  type SendMessage,
  SendMessageParams,
  TaskIdParams,
} from "./params";
import { addPush, newPush, PushConfigSchema } from "./push";
import { PUSH_METHODS, pushMethod } from "./push-methods";
import { streamTask } from "./stream";
import { settled, statusNamed, taskOf } from "./task";

// The JSON-RPC binding of A2A 1.0 at /api/a2a/{crew} (and /api/a2a, where a message names its
// crew in metadata.crew): SendMessage, SendStreamingMessage, GetTask, ListTasks, CancelTask,
// SubscribeToTask, the push notification configs and GetExtendedAgentCard, under the names the
// specification gives them.

// A version is matched on major.minor, as the specification asks: 1.0.2 is 1.0.
const majorMinor = (version: string) => version.trim().split(".").slice(0, 2).join(".");

// 0.3's method names: a client that sends them speaks 0.3, which this agent does not.
const LEGACY = new Set(["message/send", "message/stream", "tasks/get", "tasks/cancel"]);

/** Answers one JSON-RPC request to an A2A endpoint for this caller. */
export async function handleA2a(caller: Caller): Promise<Response> {
  const { request } = caller;
  let body: unknown;
  try {
    body = await readJsonBody(request, 1024 * 1024);
  } catch (err) {
    const tooBig = err instanceof AppError && err.status === 413;
    return rpcErrorResponse(
      null,
      new RpcError(
        tooBig ? CODES.invalidRequest : CODES.parse,
        `${tooBig ? "" : "Parse error: "}${err instanceof Error ? err.message : "not JSON"}`,
        tooBig ? 413 : 400,
      ),
    );
  }
  const version =
    request.headers.get("a2a-version") ?? new URL(request.url).searchParams.get("A2A-Version");
  return handleRpc(body, version, caller);
}

async function handleRpc(body: unknown, version: string | null, caller: Caller) {
  const parsed = RpcRequest.safeParse(body);
  if (!parsed.success)
    return rpcErrorResponse(
      null,
      new RpcError(
        CODES.invalidRequest,
        'Not a JSON-RPC 2.0 request: {jsonrpc: "2.0", id, method, params}.',
        400,
      ),
    );
  const { id = null, method, params } = parsed.data;
  try {
    if (LEGACY.has(method) || (version && majorMinor(version) !== A2A_VERSION))
      throw new RpcError(
        CODES.versionNotSupported,
        `This agent speaks A2A ${A2A_VERSION} only: send the header A2A-Version: ${A2A_VERSION} and its method names (SendMessage, GetTask…).`,
      );
    const result = await dispatch(id, method, params, caller);
    return result instanceof Response ? result : reply(id, { result });
  } catch (err) {
    return rpcErrorResponse(id, asRpcError(err));
  }
}

async function dispatch(id: RpcId, method: string, params: unknown, caller: Caller) {
  switch (method) {
    case "SendMessage": {
      const send = paramsOf(SendMessageParams, params);
      if (send.configuration?.returnImmediately)
        return { task: taskOf(await accept(send, caller)) };
      // Held until the task settles: a stream slot, taken before the run starts.
      return inStreamSlot(caller.principal, async () => {
        const run = await accept(send, caller);
        if (settled(run)) return { task: taskOf(run) };
        const done = await followRun(caller.db, caller.principal, run.kickoff_id, {
          crew: run.crew,
          signal: caller.signal,
          untilWaiting: true,
          onUpdate: () => {},
        });
        return { task: taskOf(done) };
      });
    }
    case "SendStreamingMessage": {
      const send = paramsOf(SendMessageParams, params);
      const slot = acquireStreamSlot(caller.principal);
      try {
        return streamTask(id, await accept(send, caller), caller, slot);
      } catch (err) {
        slot();
        throw err;
      }
    }
    case "SubscribeToTask": {
      const run = await ownRun(caller, paramsOf(TaskIdParams, params).id);
      if (isFinished(run))
        throw new RpcError(
          CODES.unsupported,
          `Task ${run.kickoff_id} has finished (${run.status}).`,
        );
      return streamTask(id, run, caller);
    }
    case "GetTask":
      return taskOf(await ownRun(caller, paramsOf(TaskIdParams, params).id));
    case "CancelTask": {
      const run = await ownRun(caller, paramsOf(TaskIdParams, params).id);
      if (isFinished(run))
        throw new RpcError(
          CODES.taskNotCancelable,
          `Task ${run.kickoff_id} has already finished (${run.status}).`,
        );
      await cancelRun(caller.db, caller.principal, run);
      return taskOf(await readRun(caller.db, caller.principal, run.kickoff_id, run.crew));
    }
    case "ListTasks":
      return listTasks(caller, paramsOf(ListTasksParams, params));
    case "GetExtendedAgentCard":
      return hostCard(startableCrews(caller.principal));
    default:
      if (PUSH_METHODS.has(method)) return pushMethod(method, params, caller, ownRun);
      throw new RpcError(CODES.methodNotFound, `Method not found: ${method}.`);
  }
}

/** A run of this endpoint's crew (when it has one) that the caller may see. */
async function ownRun(caller: Caller, id: string): Promise<StatusResponse> {
  const run = await readRun(caller.db, caller.principal, id, caller.crew?.slug).catch((err) => {
    if (err instanceof AppError && err.status === 404) return undefined;
    throw err;
  });
  if (!run || (caller.crew && run.crew !== caller.crew.slug))
    throw new RpcError(CODES.taskNotFound, `Task not found: ${id}`);
  return run;
}

/** A new message starts a run; a message on a task waiting for input is the review decision. */
async function accept(send: SendMessage, caller: Caller): Promise<StatusResponse> {
  const config = send.configuration?.taskPushNotificationConfig;
  const push = config ? await newPush(paramsOf(PushConfigSchema, config)) : undefined;
  const { message } = send;
  const content = contentOf(message);
  if (message.taskId) {
    const run = await ownRun(caller, message.taskId);
    if (isFinished(run))
      throw new RpcError(
        CODES.unsupported,
        `Task ${run.kickoff_id} has finished (${run.status}); start a new task without taskId.`,
      );
    if (run.status !== "pending_human_input")
      throw new RpcError(
        CODES.unsupported,
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
    meta: { a2a_context: message.contextId ?? crypto.randomUUID(), a2a_message: message.messageId },
    ...(push ? { pushes: [push] } : {}),
  });
  return readRun(caller.db, caller.principal, id, crew.slug);
}

function crewNamed(metadata: Record<string, unknown> | undefined): string {
  const crew = metadata?.crew;
  if (typeof crew === "string" && crew) return crew;
  throw new RpcError(
    CODES.invalidParams,
    "Name the crew to run: send to /api/a2a/{crew}, or set message.metadata.crew (GetExtendedAgentCard lists them).",
  );
}

/** The tasks this caller started over A2A (on this crew's endpoint, this crew's), newest first. */
async function listTasks(caller: Caller, params: z.infer<typeof ListTasksParams>) {
  const pageSize = params.pageSize ?? 50;
  const offset = Number(params.pageToken || 0);
  const status = params.status ? statusNamed(params.status) : undefined;
  if (params.status && !status)
    throw new RpcError(
      CODES.invalidParams,
      `Invalid params: status ${params.status} is not a TaskState.`,
    );
  const { runs, total } = await protocolRuns(caller.db, caller.principal, "a2a", {
    ...(caller.crew ? { crew: caller.crew.slug } : {}),
    ...(params.contextId ? { context: params.contextId } : {}),
    ...(status ? { status } : {}),
    offset,
    limit: pageSize,
  });
  const tasks = [];
  for (const { id, crew } of runs)
    tasks.push(taskOf(await readRun(caller.db, caller.principal, id, crew)));
  const next = offset + runs.length;
  return { tasks, nextPageToken: next < total ? String(next) : "", pageSize, totalSize: total };
}
