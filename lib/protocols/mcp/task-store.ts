import type { TaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import type { CallToolResult, Result, Task } from "@modelcontextprotocol/sdk/types.js";
import type { Principal } from "@/lib/auth/principal";
import type { StatusResponse } from "@/lib/contract/status";
import type { Db } from "@/lib/db/types";
import { AppError } from "@/lib/errors";
import {
  cancelRun,
  isFinished,
  PAGE_TOKEN,
  protocolRuns,
  readRun,
  reviewMessage,
  runAnswer,
} from "../runs";

// MCP tasks (specification 2025-11-25) over Crewdeck's runs: a task is a run, its id the run's
// kickoff_id, so a client polls it from any instance and after a restart. Nothing is kept in
// memory: the store reads the run each time, as the caller may see it.

/** How often a client should poll a running task (the SDK's tasks/result waits as long). */
const POLL_MS = 1000;
const LIST_LIMIT = 50;

const MCP_STATUS: Record<StatusResponse["status"], Task["status"]> = {
  queued: "working",
  running: "working",
  pending_human_input: "input_required",
  completed: "completed",
  error: "failed",
  cancelled: "cancelled",
};

/** A run as MCP sees it: a run awaiting review is input_required, with what it waits for. */
export function taskOf(run: StatusResponse): Task {
  const status = MCP_STATUS[run.status];
  const message =
    status === "input_required"
      ? reviewMessage(run)
      : isFinished(run)
        ? runAnswer(run).slice(0, 2000)
        : progressLine(run);
  return {
    taskId: run.kickoff_id,
    status,
    ttl: null,
    createdAt: run.created_at,
    lastUpdatedAt: run.updated_at,
    pollInterval: POLL_MS,
    ...(message ? { statusMessage: message } : {}),
  };
}

/** One line on where a working run is: which task, how many done. */
export function progressLine(run: StatusResponse): string {
  const { completed_tasks, total_tasks } = run.progress;
  const current = run.current_task ? `running '${run.current_task}', ` : "";
  return `${run.status === "queued" ? "queued, " : current}${completed_tasks} of ${total_tasks} tasks done`;
}

/** What tools/call answers for a finished run: its result as text, and the run as data. */
export function toolResultOf(run: StatusResponse): CallToolResult {
  return {
    content: [{ type: "text", text: runAnswer(run) }],
    structuredContent: {
      kickoff_id: run.kickoff_id,
      crew: run.crew,
      status: run.status,
      result: run.result,
      tasks: run.tasks.map((t) => ({ task_id: t.task_id, status: t.status, output: t.output })),
    },
    isError: run.status !== "completed",
  };
}

export class RunTaskStore implements TaskStore {
  constructor(
    private readonly db: Db,
    private readonly principal: Principal,
  ) {}

  async createTask(): Promise<Task> {
    // Tasks are created by tools/call itself (the run is the task); nothing else makes one.
    throw new Error("tasks are created by calling a tool");
  }

  async getTask(taskId: string): Promise<Task | null> {
    const run = await this.run(taskId);
    return run ? taskOf(run) : null;
  }

  async storeTaskResult(): Promise<void> {
    // A run's result is its own; there is nothing to store beside it.
  }

  async getTaskResult(taskId: string): Promise<Result> {
    const run = await this.run(taskId);
    if (!run) throw new Error(`Task not found: ${taskId}`);
    return toolResultOf(run);
  }

  async updateTaskStatus(taskId: string, status: Task["status"]): Promise<void> {
    // The one change a client asks for is tasks/cancel: the run stops as POST /stop stops it.
    if (status !== "cancelled") return;
    const run = await this.run(taskId);
    if (!run) throw new Error(`Task not found: ${taskId}`);
    await cancelRun(this.db, this.principal, run);
  }

  async listTasks(cursor?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
    if (cursor !== undefined && !PAGE_TOKEN.test(cursor))
      throw new Error(`Invalid cursor: ${cursor}`);
    const offset = Number(cursor || 0);
    const { runs, total } = await protocolRuns(this.db, this.principal, "mcp", {
      offset,
      limit: LIST_LIMIT,
    });
    const tasks: Task[] = [];
    for (const { id, crew } of runs) {
      const run = await this.run(id, crew);
      if (run) tasks.push(taskOf(run));
    }
    const next = offset + runs.length;
    return next < total ? { tasks, nextCursor: String(next) } : { tasks };
  }

  /** The run, or null for one this caller may not see (the SDK answers "Task not found"). */
  private async run(taskId: string, crew?: string): Promise<StatusResponse | null> {
    try {
      return await readRun(this.db, this.principal, taskId, crew);
    } catch (err) {
      if (err instanceof AppError && err.status === 404) return null;
      throw err;
    }
  }
}
