import type { FlowMethod } from "@/lib/crew/flow-plan";
import type { FlowCurrent } from "@/lib/run-model/flow-progress";
import type { ExecutionRow } from "@/lib/run-model/types";
import type { MethodEnd } from "./flow-changes";
import { feedbackOutcome } from "./outcomes";

/**
 * The reviewer's decision on the method's output, once made (approved or sent back alike: in a
 * flow, feedback routes; it does not run the method again), with the outcome it routes to.
 */
export async function decidedFeedback(
  row: ExecutionRow,
  method: FlowMethod,
  cur: FlowCurrent,
): Promise<MethodEnd | undefined> {
  const task = row.tasks.find((t) => t.task_id === method.name);
  if (!task || task.status === "pending_human_input") return undefined;
  const review = task.reviews?.filter((r) => r.attempt === task.attempts).at(-1);
  if (!review) return undefined;
  const feedback = review.feedback;
  const kept = {
    feedback,
    children: cur.children ?? [],
    ...(review.edited_output !== undefined ? { edited: review.edited_output } : {}),
  };
  const emit = method.feedback?.emit ?? [];
  if (!emit.length) return kept;
  const { outcome, how, usage } = await feedbackOutcome({
    feedback,
    chosen: review.outcome,
    emit,
    defaultOutcome: method.feedback?.default_outcome ?? null,
    llm: method.feedback?.llm ?? null,
  });
  return { ...kept, outcome, how, ...(usage ? { own: usage } : {}) };
}
