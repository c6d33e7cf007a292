import {
  AgentCard,
  type CancelTaskRequest,
  type DeleteTaskPushNotificationConfigRequest,
  type GetTaskPushNotificationConfigRequest,
  type GetTaskRequest,
  type ListTaskPushNotificationConfigsRequest,
  type ListTasksRequest,
  type ListTasksResponse,
  type SendMessageRequest,
  type StreamResponse,
  type SubscribeToTaskRequest,
  type Task,
  type TaskPushNotificationConfig,
} from "@a2a-js/sdk";
import { A2AError, TaskNotCancelableError, UnsupportedOperationError } from "@a2a-js/sdk/errors";
import type { A2ARequestHandler } from "@a2a-js/sdk/server";
import type { StatusResponse } from "@/lib/contract/status";
import { AppError } from "@/lib/errors";
import { followRun } from "../follow";
import { inStreamSlot } from "../held";
import { cancelRun, isFinished, protocolRuns, readRun, startableCrews } from "../runs";
import { accept, ownRun } from "./accept";
import { crewCard, hostCard } from "./card";
import { a2aErrorOf } from "./errors";
import type { Caller } from "./params";
import { createConfig, deleteConfig, getConfig, listConfigs } from "./push-methods";
import { taskEvents } from "./stream";
import { settled, statusOfState, taskOf } from "./task";

/**
 * Crewdeck's runs behind the SDK's A2ARequestHandler, for one request of one caller. Not the
 * SDK's DefaultRequestHandler with its task store and event bus: a task here is a durable run
 * row that separate worker processes execute, so it is read and followed in the database.
 */
export class RunsRequestHandler implements A2ARequestHandler {
  /** The HTTP status the answer goes with: 200 but for a refusal or a limit. */
  status = 200;
  /** An error of ours that is no A2A answer: rethrown once the SDK has answered, as a 500. */
  failure: unknown;
  /** Ends what a stream follows, once the stream has ended. */
  readonly stop = new AbortController();

  constructor(private readonly caller: Caller) {}

  getAgentCard() {
    const { crew } = this.caller;
    return this.guarded(async () => AgentCard.fromJSON(crew ? crewCard(crew) : hostCard()));
  }

  getAuthenticatedExtendedAgentCard() {
    const crews = () => startableCrews(this.caller.principal);
    return this.guarded(async () => AgentCard.fromJSON(hostCard(crews())));
  }

  sendMessage(send: SendMessageRequest) {
    return this.guarded(() => this.send(send));
  }

  sendMessageStream(send: SendMessageRequest) {
    return this.guardedStream(async () => accept(send, this.caller));
  }

  resubscribe({ id }: SubscribeToTaskRequest) {
    return this.guardedStream(async () => {
      const run = await ownRun(this.caller, id);
      if (isFinished(run))
        throw new UnsupportedOperationError(`Task ${run.kickoff_id} has finished (${run.status}).`);
      return run;
    });
  }

  getTask({ id }: GetTaskRequest) {
    return this.guarded(async () => taskOf(await ownRun(this.caller, id)));
  }

  cancelTask({ id }: CancelTaskRequest) {
    const { db, principal } = this.caller;
    return this.guarded(async () => {
      const run = await ownRun(this.caller, id);
      if (isFinished(run))
        throw new TaskNotCancelableError(
          `Task ${run.kickoff_id} has already finished (${run.status}).`,
        );
      await cancelRun(db, principal, run);
      return taskOf(await readRun(db, principal, run.kickoff_id, run.crew));
    });
  }

  listTasks(params: ListTasksRequest) {
    return this.guarded(() => this.list(params));
  }

  createTaskPushNotificationConfig(config: TaskPushNotificationConfig) {
    return this.guarded(async () =>
      createConfig(this.caller, await ownRun(this.caller, config.taskId), config),
    );
  }

  getTaskPushNotificationConfig(ref: GetTaskPushNotificationConfigRequest) {
    return this.guarded(async () =>
      getConfig(this.caller, await ownRun(this.caller, ref.taskId), ref),
    );
  }

  listTaskPushNotificationConfigs({ taskId }: ListTaskPushNotificationConfigsRequest) {
    return this.guarded(async () => listConfigs(this.caller, await ownRun(this.caller, taskId)));
  }

  deleteTaskPushNotificationConfig(ref: DeleteTaskPushNotificationConfigRequest) {
    return this.guarded(async () =>
      deleteConfig(this.caller, await ownRun(this.caller, ref.taskId), ref),
    );
  }

  /** A blocking send is held until the task settles, in a stream slot taken before it starts. */
  private async send(send: SendMessageRequest): Promise<Task> {
    const { db, principal, signal } = this.caller;
    if (send.configuration?.returnImmediately) return taskOf(await accept(send, this.caller));
    return inStreamSlot(principal, async () => {
      const run = await accept(send, this.caller);
      if (settled(run)) return taskOf(run);
      const done = await followRun(db, principal, run.kickoff_id, {
        crew: run.crew,
        signal,
        untilWaiting: true,
        onUpdate: () => {},
      });
      return taskOf(done);
    });
  }

  /** The tasks this caller started over A2A (on this crew's endpoint, this crew's), newest first. */
  private async list(params: ListTasksRequest): Promise<ListTasksResponse> {
    const { db, principal, crew } = this.caller;
    const pageSize = params.pageSize ?? 50;
    const offset = Number(params.pageToken || 0);
    const status = statusOfState(params.status);
    const { runs, total } = await protocolRuns(db, principal, "a2a", {
      ...(crew ? { crew: crew.slug } : {}),
      ...(params.contextId ? { context: params.contextId } : {}),
      ...(status ? { status } : {}),
      offset,
      limit: pageSize,
    });
    const tasks = [];
    for (const run of runs) tasks.push(taskOf(await readRun(db, principal, run.id, run.crew)));
    const next = offset + runs.length;
    return { tasks, nextPageToken: next < total ? String(next) : "", pageSize, totalSize: total };
  }

  private async guarded<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw this.mapped(err);
    }
  }

  /** A run's events, once `open` has found (or started) it; its refusals answered as errors. */
  private async *guardedStream(
    open: () => Promise<StatusResponse>,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const run = await this.guarded(open);
    yield* taskEvents(this.caller, run, this.stop.signal);
  }

  /** Ours as the SDK's (it answers those); anything else kept to be rethrown. */
  private mapped(err: unknown): unknown {
    if (err instanceof A2AError) return err;
    if (err instanceof AppError) {
      const { error, status } = a2aErrorOf(err);
      this.status = status;
      return error;
    }
    this.failure = err;
    return err;
  }
}
