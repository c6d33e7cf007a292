import type { FlowMethod, FlowPlan } from "@/lib/crew/flow-plan";
import { afterMethod, type FlowCurrent, type FlowProgress } from "@/lib/run-model/flow-progress";
import { openReview, openReviewsOf, reviewColumns } from "@/lib/run-model/open-reviews";
import type { ExecutionRow, NewEvent, TaskState, TokenUsage } from "@/lib/run-model/types";
import type { Change } from "@/lib/runs/execution-store";
import { outputText } from "./flow-actions";
import { matchOutcome } from "./outcomes";

// What each step of a flow changes in its run, written in one statement with its events: the
// method's task (a flow's methods are its tasks), the flow's progress, the run's status.

/** A flow run's progress (every flow run has one once the worker first claims it). */
export const progressOf = (r: ExecutionRow): FlowProgress => {
  if (!r.flow) throw new Error(`execution ${r.id} has no flow progress`);
  return r.flow;
};

function withTask(r: ExecutionRow, method: string, patch: (t: TaskState) => Partial<TaskState>) {
  return r.tasks.map((t) => (t.task_id === method ? { ...t, ...patch(t) } : t));
}

/** The method taken off the queue starts: its task runs (again, in a cycle). */
export function methodStarted(_plan: FlowPlan, r: ExecutionRow, p: FlowProgress): Change {
  const cur = p.current;
  if (!cur) return { patch: { flow: p } };
  const task = r.tasks.find((t) => t.task_id === cur.method);
  const attempt = (task?.attempts ?? 0) + 1;
  return {
    patch: {
      flow: p,
      current_task: cur.method,
      tasks: withTask(r, cur.method, () => ({
        status: "running",
        attempts: attempt,
        output: null,
        error: null,
        started_at: cur.started_at,
        finished_at: null,
        execution_time: null,
      })),
    },
    events: [
      {
        type: "task_started",
        task_id: cur.method,
        attempt,
        data: { name: cur.method, agent: task?.agent, flow_run: cur.run, trigger: cur.trigger },
      },
    ],
  };
}

/** The method waits for nested run `child`: the flow lets go until it ends. */
export function waitFor(r: ExecutionRow, current: FlowCurrent, child: string): Change {
  const p = progressOf(r);
  const children = current.children ?? [];
  const known = children.includes(child);
  return {
    patch: {
      flow: { ...p, current: { ...current, children: known ? children : [...children, child] } },
      lease_owner: null,
      lease_expires_at: null,
    },
    events: known
      ? []
      : [
          {
            type: "flow_nested_run",
            task_id: current.method,
            data: { method: current.method, execution_id: child },
          },
        ],
  };
}

/** The method's output awaits a reviewer's feedback: the flow pauses in the review workspace. */
export function openFeedback(
  r: ExecutionRow,
  method: FlowMethod,
  output: unknown,
  children: string[],
  nested: TokenUsage,
): Change {
  const p = progressOf(r);
  const cur = p.current;
  if (!cur) return {};
  const def = r.crew_snapshot.tasks.find((t) => t.id === method.name);
  const task = r.tasks.find((t) => t.task_id === method.name);
  if (!def || !task) throw new Error(`the flow has no task for method '${method.name}'`);
  const now = new Date();
  const text = outputText(output);
  const others = openReviewsOf(r).filter((o) => o.task_id !== method.name);
  const review = {
    ...openReview(def, task.attempts, text, now, others),
    ...(method.feedback
      ? {
          feedback: {
            message: method.feedback.message,
            outcomes: method.feedback.emit,
            default_outcome: method.feedback.default_outcome,
          },
        }
      : {}),
  };
  const tasks = withTask(r, method.name, () => ({ status: "pending_human_input", output: text }));
  return {
    patch: {
      status: "pending_human_input",
      tasks,
      token_usage: plus(p.own_usage, nested),
      ...reviewColumns([...others, review], tasks),
      flow: {
        ...p,
        current: {
          ...cur,
          output,
          awaiting_feedback: true,
          // An each's are all its items', in order; the current ones are its last item's.
          children: [...new Set([...children, ...(cur.children ?? [])])],
        },
      },
      lease_owner: null,
      lease_expires_at: null,
    },
    events: [
      {
        type: "review_requested",
        task_id: method.name,
        attempt: task.attempts,
        data: {
          name: method.name,
          output: text,
          message: method.feedback?.message,
          emit: method.feedback?.emit ?? [],
          default_outcome: method.feedback?.default_outcome ?? null,
          assignees: review.assignees,
          required_approvals: review.required_approvals,
          deadline_at: review.deadline_at,
          output_sha256: review.output_sha256,
        },
      },
    ],
  };
}

export type MethodEnd = {
  children?: string[];
  /** A reviewer's (or a router's) outcome, when already known. */
  outcome?: string;
  feedback?: string;
  how?: string;
  /** The reviewer's edit of the output, which the flow goes on with. */
  edited?: string;
  /** What all the flow's nested runs spent so far (nested-runs.ts: summed from their rows). */
  nested?: TokenUsage;
  /** What the flow's own model call spent on this step (reading a reviewer's feedback). */
  own?: TokenUsage;
};

/**
 * Tokens added up. A flow's are its own calls' (kept in its progress, written with the step
 * that made them) plus its nested runs' (read from their rows): worked out again whole at each
 * step, never added to, so a step done twice by two workers counts once.
 */
export function plus(a: TokenUsage | undefined, b: TokenUsage | undefined): TokenUsage {
  return {
    input_tokens: (a?.input_tokens ?? 0) + (b?.input_tokens ?? 0),
    output_tokens: (a?.output_tokens ?? 0) + (b?.output_tokens ?? 0),
    total_tokens: (a?.total_tokens ?? 0) + (b?.total_tokens ?? 0),
  };
}

/**
 * The method ended with `output`: kept as `outputs.<method>`, its task completed, and the methods
 * it sets off queued. A router's output is matched to its outcomes (outcomes.ts).
 */
export function finishMethod(
  plan: FlowPlan,
  r: ExecutionRow,
  output: unknown,
  end: MethodEnd,
): Change {
  const p = progressOf(r);
  const cur = p.current;
  if (!cur) return {};
  const method = plan.methods.find((m) => m.name === cur.method);
  const routed = routedOutcome(method, cur.method, output, end.outcome);
  const { outcome } = routed;
  const now = new Date();
  const { ended, own } = endedProgress(p, cur, { output, outcome, end, now });
  const next = afterMethod(plan, ended, cur.method, outcome);
  const text = outputText(output);
  const task = r.tasks.find((t) => t.task_id === cur.method);
  const reviewed = cur.awaiting_feedback === true;
  return {
    patch: {
      flow: next,
      current_task: null,
      ...(end.nested ? { token_usage: plus(own, end.nested) } : {}),
      tasks: withTask(r, cur.method, (t) => ({
        status: "completed",
        output: text,
        finished_at: now.toISOString(),
        execution_time: t.started_at
          ? Math.round((now.getTime() - Date.parse(t.started_at)) / 10) / 100
          : null,
      })),
    },
    events: [
      ...routed.warnings,
      // A reviewed method's task_completed was written with the decision.
      ...(reviewed
        ? []
        : [
            {
              type: "task_completed",
              task_id: cur.method,
              attempt: task?.attempts ?? 1,
              data: { name: cur.method, agent: task?.agent, output: text },
            },
          ]),
      {
        type: "flow_method_finished",
        task_id: cur.method,
        data: {
          method: cur.method,
          flow_run: cur.run,
          ...(outcome !== undefined ? { outcome } : {}),
          ...(end.how ? { outcome_from: end.how } : {}),
          queued: next.queue.map((q) => q.method),
          state: next.state,
        },
      },
    ],
  };
}

/**
 * The outcome a method ended with: the one already known (a reviewer's), or a router's output
 * matched to its outcomes. A router answering none of them is warned about: no listener runs.
 */
export function routedOutcome(
  method: Pick<FlowMethod, "router" | "feedback" | "emit"> | undefined,
  name: string,
  output: unknown,
  known: string | undefined,
): { outcome: string | undefined; warnings: NewEvent[] } {
  if (!method?.router || method.feedback || known !== undefined)
    return { outcome: known, warnings: [] };
  const said = outputText(output).trim();
  const outcome = matchOutcome(said, method.emit) ?? said;
  if (method.emit.includes(outcome)) return { outcome, warnings: [] };
  const message = `router '${name}' answered '${said.slice(0, 200)}', none of its outcomes (${method.emit.join(", ")}): no outcome's listener runs`;
  return { outcome, warnings: [{ type: "flow_warning", task_id: name, data: { message } }] };
}

/** The progress once the current method ended: its output kept, its step recorded. */
function endedProgress(
  p: FlowProgress,
  cur: FlowCurrent,
  {
    output,
    outcome,
    end,
    now,
  }: { output: unknown; outcome: string | undefined; end: MethodEnd; now: Date },
): { ended: FlowProgress; own: TokenUsage | undefined } {
  const children = [...new Set([...(end.children ?? []), ...(cur.children ?? [])])];
  const own = end.own ? plus(p.own_usage, end.own) : p.own_usage;
  const ended: FlowProgress = {
    ...p,
    ...(own ? { own_usage: own } : {}),
    outputs: { ...p.outputs, [cur.method]: output },
    last_output: output,
    current: null,
    completed: [...new Set([...p.completed, cur.method])],
    steps: [
      ...p.steps,
      {
        method: cur.method,
        run: cur.run,
        trigger: cur.trigger,
        ...(outcome !== undefined ? { outcome } : {}),
        ...(end.feedback !== undefined ? { feedback: end.feedback } : {}),
        children,
        started_at: cur.started_at,
        finished_at: now.toISOString(),
      },
    ],
  };
  return { ended, own };
}
