import type { StatusResponse } from "@/lib/api/schemas";
import type { ExecutionSummary } from "./get-execution";
import { CREWAI_STATE } from "./states";

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const seconds = (from: Date | null, to: Date | null) =>
  from ? Math.round(((to ?? new Date()).getTime() - new Date(from).getTime()) / 10) / 100 : null;

/** The /status body: our fields plus CrewAI's `state`, so both kinds of client read it. */
export function toStatusResponse(row: ExecutionSummary): StatusResponse {
  const tasks = row.tasks.map((t) => ({
    task_id: t.task_id,
    name: t.name,
    agent: t.agent,
    status: t.status,
    attempts: t.attempts,
    output: t.output,
    started_at: t.started_at,
    finished_at: t.finished_at,
    execution_time: t.execution_time,
  }));
  return {
    kickoff_id: row.id,
    crew: row.crew,
    status: row.status,
    state: CREWAI_STATE[row.status] as StatusResponse["state"],
    current_task: row.current_task,
    in_progress: tasks
      .filter((t) => t.status === "running" || t.status === "pending_human_input")
      .map((t) => t.task_id),
    progress: {
      completed_tasks: tasks.filter((t) => t.status === "completed").length,
      total_tasks: tasks.length,
    },
    tasks,
    pending_human_input: row.pending_human_input as StatusResponse["pending_human_input"],
    last_step: row.last_step as StatusResponse["last_step"],
    result: row.result,
    error: row.error,
    created_at: iso(row.created_at) as string,
    updated_at: iso(row.updated_at) as string,
    execution_time: seconds(row.started_at, row.finished_at),
  };
}
