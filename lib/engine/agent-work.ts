import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { ModelMessage, Tool } from "ai";
import { env } from "@/lib/config/env";
import type { AgentDef, TaskDef } from "@/lib/crew/schema";
import type { Db } from "@/lib/db/types";
import { chooseModel } from "@/lib/llm/choose-model";
import { resolveModel } from "@/lib/llm/resolve-model";
import type { DecidedCall, PausedConversation } from "@/lib/run-model/review-types";
import type { ExecutionRow } from "@/lib/run-model/types";
import type { ExecutionWriter } from "@/lib/runs/execution-writer";
import { observedModel, tracedTools } from "@/lib/telemetry/gen-ai";
import { agentTools, type OversizedResult } from "@/lib/tools/agent-tools";
import { interpolate } from "@/lib/util/placeholders";
import { limitedModel, limitersFor } from "./calls-per-minute";
import { coworkersOf, delegationTools } from "./delegation";
import { buildPrompt } from "./prompt";
import { recordEvents, recordSteps } from "./record-steps";
import { type AgentUsage, runAgent, ToolApprovalNeeded } from "./run-agent";
import { budgetedModel } from "./spend-gate";
import { settleDecidedCalls } from "./tool-approvals";

type AgentResult = { output: string; usage: AgentUsage };

/**
 * One agent set up to work on one attempt of a task: its model (LLM_OVERRIDE applied, held to
 * `max_rpm` and to the spend budget the run draws on, if any), its tools plus the delegation
 * tools when it is the manager or may delegate, `max_iter`, and its steps recorded into the task.
 * A coworker it hands work to is set up the same way, without delegation of its own (one level,
 * as CrewAI's delegation tools do in practice).
 */
export function agentWork({
  db,
  row,
  task,
  index,
  attempt,
  agent,
  writer,
  delegatedBy,
}: {
  db: Db;
  row: ExecutionRow;
  task: TaskDef;
  index: number;
  attempt: number;
  agent: AgentDef;
  writer: ExecutionWriter;
  delegatedBy?: AgentDef;
}) {
  const e = env();
  const crew = row.crew_snapshot;
  // Recorded as the model actually used: with LLM_OVERRIDE, not the one the crew file names.
  const choice = chooseModel(agent, e);
  const modelId = choice.ref.id;
  const coworkers = delegatedBy ? [] : coworkersOf(crew, task, agent);
  // The team as the model reads it in the tools' description: roles and goals with the inputs in.
  const withInputs = (a: AgentDef): AgentDef => ({
    ...a,
    role: interpolate(a.role, row.inputs, { field: `Agent '${a.id}' role` }),
    goal: interpolate(a.goal, row.inputs, { field: `Agent '${a.id}' goal` }),
  });
  let resolved: LanguageModelV3 | undefined;
  // Resolved on first use, so a model that cannot be set up fails the task, not the set-up.
  const model = () => {
    if (resolved) return resolved;
    const limited = limitedModel(
      observedModel(resolveModel(choice, { offlineDelayMs: e.OFFLINE_MODEL_DELAY_MS }), {
        crew: row.crew,
        ...choice.ref,
        modelId,
      }),
      limitersFor(row.id, crew.max_rpm, agent),
    );
    resolved = mayDrawOnBudget(row)
      ? budgetedModel(limited, { db, executionId: row.id, modelId, writer })
      : limited;
    return resolved;
  };

  async function run({
    system,
    prompt,
    signal,
    resume,
  }: {
    system: string;
    prompt: string;
    signal: AbortSignal;
    /** Go on from where the agent stopped for approvals, with the calls now decided. */
    resume?: { paused: PausedConversation; decided: DecidedCall[] };
  }): Promise<AgentResult> {
    const oversized: OversizedResult[] = [];
    const own = await agentTools(
      agent,
      { db, executionId: row.id, crew, taskId: task.id, attempt, agentId: agent.id },
      (r) => oversized.push(r),
      // A coworker works inside the asking agent's tool call: it cannot stop there for a person.
      { refuseGated: !!delegatedBy },
    );
    // MCP tools it must go without (a server down, a tool missing): said in the run, as a step.
    for (const message of own.warnings)
      writer.record(() => ({
        events: [
          {
            type: "tool_warning",
            task_id: task.id,
            attempt,
            data: {
              agent: agent.id,
              message,
              ...(delegatedBy ? { delegated_by: delegatedBy.id } : {}),
            },
          },
        ],
      }));
    const tools: Record<string, Tool> = tracedTools({
      ...own.tools,
      ...delegationTools(
        coworkers.map(withInputs),
        async ({ kind, coworker, request, context }): Promise<string> => {
          const helper = agentWork({
            db,
            row,
            task,
            index,
            attempt,
            agent: coworker,
            writer,
            delegatedBy: agent,
          });
          const asked = buildPrompt({
            agent: coworker,
            task: {
              ...task,
              description: request,
              expected_output:
                kind === "ask"
                  ? "A clear, complete answer to the question."
                  : "The complete result of this work, to hand back to your coworker.",
              context: undefined,
            },
            inputs: row.inputs,
            context: context.trim()
              ? [
                  {
                    task_id: task.id,
                    name: `From ${interpolate(agent.role, row.inputs, { field: `Agent '${agent.id}' role` })}`,
                    output: context,
                  },
                ]
              : [],
          });
          return (await helper.run({ ...asked, signal })).output;
        },
      ),
    });
    // What is recorded or shown of a call's arguments has its tool's secrets blotted out (an MCP
    // server's); the call itself runs with them as the model wrote them.
    const byName = new Map(own.listed.map((t) => [t.name, t]));
    const shown = (tool: string, input: unknown) => byName.get(tool)?.redact?.(input) ?? input;
    const record = recordSteps({
      record: writer.record,
      index,
      taskId: task.id,
      attempt,
      agentId: agent.id,
      modelId,
      delegatedBy: delegatedBy?.id,
      oversized,
    });
    const onStep: typeof record = (steps, usage, also) =>
      record(
        steps.map((st) =>
          st.type === "tool_call" ? { ...st, tool_input: shown(st.tool, st.tool_input) } : st,
        ),
        usage,
        also,
      );
    const maxSteps = agent.max_iter ?? e.AGENT_MAX_STEPS;
    let messages: ModelMessage[] | undefined;
    if (resume) {
      const settled = await settleDecidedCalls(resume.paused, resume.decided, tools, signal);
      // The decided calls' results and the end of the pause in one change: a worker that takes
      // the run over after this starts the task afresh rather than running the calls again.
      await onStep(settled.steps, { input_tokens: 0, output_tokens: 0 }, (r) => ({
        tasks: r.tasks.map((t, i) => (i === index ? { ...t, paused: undefined } : t)),
      }));
      await writer.flush(); // the calls ran: stored before the agent goes on

      messages = settled.messages;
    }
    try {
      return await runAgent({
        model: model(),
        settings: choice.params,
        system,
        prompt,
        messages,
        tools,
        maxSteps: resume ? Math.max(1, maxSteps - resume.paused.steps_used) : maxSteps,
        maxRetries: e.MODEL_MAX_RETRIES,
        signal,
        onStep,
      });
    } catch (err) {
      if (!(err instanceof ToolApprovalNeeded)) throw err;
      // Say where each gated tool comes from, for the reviewer, and show no secret of its.
      // (Approved unedited, a call runs with the model's own arguments: settleDecidedCalls.)
      const calls = err.calls.map((c) => {
        const t = byName.get(c.tool);
        if (!t) return c;
        const shownArgs = shown(c.tool, c.arguments);
        return { ...c, arguments: shownArgs, source: t.source, writes: t.writes, server: t.server };
      });
      const spent = resume ? resume.paused.steps_used : 0;
      throw new ToolApprovalNeeded(calls, err.messages, spent + err.stepsUsed);
    }
  }
  return { modelId, model, run, record: recordEvents({ record: writer.record, index, modelId }) };
}

/**
 * Only an experiment's cell, or a run nested in one (a flow cell's crews), draws on a spend
 * budget: every other run skips the budget's lookup before its first model call.
 */
function mayDrawOnBudget(row: ExecutionRow): boolean {
  return row.parent_id !== null || row.meta?.experiment !== undefined;
}
