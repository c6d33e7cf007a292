import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { Tool } from "ai";
import { env } from "@/lib/config/env";
import { interpolate } from "@/lib/crew/inputs";
import type { AgentDef, TaskDef } from "@/lib/crew/schema";
import type { Db } from "@/lib/db/types";
import { chooseModel } from "@/lib/llm/choose-model";
import { resolveModel } from "@/lib/llm/resolve-model";
import type { ExecutionRow } from "@/lib/runs/types";
import { agentTools, type OversizedResult } from "@/lib/tools/agent-tools";
import { limitedModel, limitersFor } from "./calls-per-minute";
import { coworkersOf, delegationTools } from "./delegation";
import { buildPrompt } from "./prompt";
import { recordEvents, recordSteps } from "./record-steps";
import { type AgentUsage, runAgent } from "./run-agent";
import type { ChangeRow } from "./run-task";

type AgentResult = { output: string; usage: AgentUsage };

/**
 * One agent set up to work on one attempt of a task: its model (LLM_OVERRIDE applied, held to
 * `max_rpm`), its tools plus the delegation tools when it is the manager or may delegate,
 * `max_iter`, and its steps recorded into the task. A coworker it hands work to is set up the same
 * way, without delegation of its own (one level, as CrewAI's delegation tools do in practice).
 */
export function agentWork({
  db,
  row,
  task,
  index,
  attempt,
  agent,
  change,
  delegatedBy,
}: {
  db: Db;
  row: ExecutionRow;
  task: TaskDef;
  index: number;
  attempt: number;
  agent: AgentDef;
  change: ChangeRow;
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
    role: interpolate(a.role, row.inputs),
    goal: interpolate(a.goal, row.inputs),
  });
  let resolved: LanguageModelV3 | undefined;
  // Resolved on first use, so a model that cannot be set up fails the task, not the set-up.
  const model = () => {
    resolved ??= limitedModel(
      resolveModel(choice, { offlineDelayMs: e.OFFLINE_MODEL_DELAY_MS }),
      limitersFor(row.id, crew.max_rpm, agent),
    );
    return resolved;
  };

  async function run({
    system,
    prompt,
    signal,
  }: {
    system: string;
    prompt: string;
    signal: AbortSignal;
  }): Promise<AgentResult> {
    const oversized: OversizedResult[] = [];
    const own = await agentTools(
      agent,
      { db, executionId: row.id, crew, taskId: task.id, attempt, agentId: agent.id },
      (r) => oversized.push(r),
    );
    const tools: Record<string, Tool> = {
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
            change,
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
                    name: `From ${interpolate(agent.role, row.inputs)}`,
                    output: context,
                  },
                ]
              : [],
          });
          return (await helper.run({ ...asked, signal })).output;
        },
      ),
    };
    return runAgent({
      model: model(),
      settings: choice.params,
      system,
      prompt,
      tools,
      maxSteps: agent.max_iter ?? e.AGENT_MAX_STEPS,
      maxRetries: e.MODEL_MAX_RETRIES,
      signal,
      onStep: recordSteps({
        change,
        index,
        taskId: task.id,
        attempt,
        agentId: agent.id,
        modelId,
        delegatedBy: delegatedBy?.id,
      }),
    });
  }
  return { modelId, model, run, record: recordEvents({ change, index, modelId }) };
}
