import type { TaskDef } from "@/lib/crew/schema";
import { openReview } from "@/lib/run-model/open-reviews";
import type { OpenReview } from "@/lib/run-model/review-types";
import type { ExecutionRow, Review, TaskState } from "@/lib/run-model/types";

// Runs awaiting review as rows alone, for the tests of what a decision does to a run
// (lib/reviews/decide.ts, clock.ts) without a database.

export const T0 = new Date("2026-01-01T00:00:00Z");
export const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

export const def = (id: string, extra: Partial<TaskDef> = {}): TaskDef =>
  ({
    id,
    name: id.toUpperCase(),
    description: "D",
    expected_output: "E",
    agent: "a",
    human_input: true,
    ...extra,
  }) as TaskDef;
export const state = (
  id: string,
  status: TaskState["status"],
  reviews: Review[] = [],
): TaskState => ({
  task_id: id,
  name: id.toUpperCase(),
  agent: "a",
  human_input: true,
  status,
  attempts: 1,
  output: status === "completed" ? `${id} done` : null,
  started_at: null,
  finished_at: null,
  execution_time: null,
  reviews,
});

/** A run of tasks `defs` whose task `under` awaits review of "draft" since T0. */
export function runAwaiting(defs: TaskDef[], tasks: TaskState[], review: Partial<OpenReview> = {}) {
  const under = tasks.find((t) => t.status === "pending_human_input")?.task_id;
  const d = defs.find((x) => x.id === under) as TaskDef;
  const open = { ...openReview(d, 1, "draft", T0), ...review };
  const row = {
    id: "e",
    status: "pending_human_input",
    tasks,
    inputs: {},
    crew_snapshot: { tasks: defs },
    open_reviews: [open],
    pending_human_input: null,
    review_wait_seconds: 5,
    token_usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
    webhooks: {},
    current_task: under,
  } as unknown as ExecutionRow;
  return { row, open };
}

export const who = (name: string) => ({ name, user_id: name });
