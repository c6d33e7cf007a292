import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { ModelMessage, Tool } from "ai";
import { env } from "@/lib/config/env";
import type { AgentDef, TaskDef } from "@/lib/crew/schema";
import type { Db } from "@/lib/db/types";
import { chooseModel, type ModelChoice } from "@/lib/llm/choose-model";
import { resolveModel } from "@/lib/llm/resolve-model";
import type { DecidedCall, PausedConversation } from "@/lib/run-model/review-types";
import type { ExecutionRow } from "@/lib/run-model/types";
import type { Change } from "@/lib/runs/execution-store";
import type { ExecutionWriter } from "@/lib/runs/execution-writer";
import { observedModel, tracedTools } from "@/lib/telemetry/gen-ai";
import { agentTools, type OversizedResult } from "@/lib/tools/agent-tools";
import {
  agentWithInputs,
  argumentsShown,
  coworkerPrompt,
  gatedCallsShown,
  mayDrawOnBudget,
  stepsLeft,
  stepsShown,
} from "./agent-setup";
import { limitedModel, limitersFor } from "./calls-per-minute";
import { type CoworkerRequest, coworkersOf, delegationTools } from "./delegation";
import { recordEvents, recordSteps } from "./record-steps";
import { type AgentUsage, runAgent, ToolApprovalNeeded } from "./run-agent";
import { budgetedModel } from "./spend-gate";
import { settleDecidedCalls } from "./tool-approvals";

type AgentResult = { output: string; usage: AgentUsage };

/** One agent on one attempt of a task, in its run; `delegatedBy` when a coworker asked it. */
export type AgentAt = {
  db: Db;
  row: ExecutionRow;
  task: TaskDef;
  index: number;
  attempt: number;
  agent: AgentDef;
  writer: ExecutionWriter;
  delegatedBy?: AgentDef;
};

type Ask = {
  system: string;
  prompt: string;
  signal: AbortSignal;
  /** Go on from where the agent stopped for approvals, with the calls now decided. */
  resume?: { paused: PausedConversation; decided: DecidedCall[] };
};

type AgentModel = { choice: ModelChoice; modelId: string; model: () => LanguageModelV3 };

/**
 * One agent set up to work on one attempt of a task: its model (LLM_OVERRIDE applied, held to
 * `max_rpm` and to the spend budget the run draws on, if any), its tools plus the delegation
 * tools when it is the manager or may delegate, `max_iter`, and its steps recorded into the task.
 * A coworker it hands work to is set up the same way, without delegation of its own (one level,
 * as CrewAI's delegation tools do in practice).
 */
export function agentWork(at: AgentAt) {
  const e = env();
  // Recorded as the model actually used: with LLM_OVERRIDE, not the one the crew file names.
  const choice = chooseModel(at.agent, e);
  const modelId = choice.ref.id;
  let resolved: LanguageModelV3 | undefined;
  // Resolved on first use, so a model that cannot be set up fails the task, not the set-up.
  const model = () => {
    resolved ??= setUpModel(at, choice, e.OFFLINE_MODEL_DELAY_MS);
    return resolved;
  };
  const run = (ask: Ask) => runOnce(at, { choice, modelId, model }, ask);
  const record = recordEvents({ record: at.writer.record, index: at.index, modelId });
  return { modelId, model, run, record };
}

/** The agent's model, observed, held to its calls per minute and, if any, the spend budget. */
function setUpModel(
  { db, row, agent, writer }: AgentAt,
  choice: ModelChoice,
  offlineDelayMs: number,
): LanguageModelV3 {
  const modelId = choice.ref.id;
  const limited = limitedModel(
    observedModel(resolveModel(choice, { offlineDelayMs }), {
      crew: row.crew,
      ...choice.ref,
      modelId,
    }),
    limitersFor(row.id, row.crew_snapshot.max_rpm, agent),
  );
  return mayDrawOnBudget(row)
    ? budgetedModel(limited, { db, executionId: row.id, modelId, writer })
    : limited;
}

/** One run of the agent's loop on a prompt, its steps recorded as they happen. */
async function runOnce(
  at: AgentAt,
  { choice, modelId, model }: AgentModel,
  { system, prompt, signal, resume }: Ask,
): Promise<AgentResult> {
  const e = env();
  const oversized: OversizedResult[] = [];
  const { tools, listed } = await toolsOf(at, oversized, signal);
  // What is recorded or shown of a call's arguments has its tool's secrets blotted out (an MCP
  // server's); the call itself runs with them as the model wrote them.
  const shown = argumentsShown(listed);
  const record = recordSteps({
    record: at.writer.record,
    index: at.index,
    taskId: at.task.id,
    attempt: at.attempt,
    agentId: at.agent.id,
    modelId,
    delegatedBy: at.delegatedBy?.id,
    oversized,
  });
  const onStep: typeof record = (steps, usage, also) =>
    record(stepsShown(steps, shown), usage, also);
  const maxSteps = at.agent.max_iter ?? e.AGENT_MAX_STEPS;
  const messages = resume ? await decidedCallsRun(at, resume, tools, signal, onStep) : undefined;
  const usedBeforePause = resume?.paused.steps_used;
  try {
    return await runAgent({
      model: model(),
      settings: choice.params,
      system,
      prompt,
      messages,
      tools,
      maxSteps: stepsLeft(maxSteps, usedBeforePause),
      maxRetries: e.MODEL_MAX_RETRIES,
      signal,
      onStep,
    });
  } catch (err) {
    if (!(err instanceof ToolApprovalNeeded)) throw err;
    const spent = usedBeforePause ?? 0;
    throw new ToolApprovalNeeded(
      gatedCallsShown(err.calls, listed),
      err.messages,
      spent + err.stepsUsed,
    );
  }
}

/**
 * The agent's own tools, and the delegation tools when it may hand work on. MCP tools it must go
 * without (a server down, a tool missing) are said in the run, as a step.
 */
async function toolsOf(at: AgentAt, oversized: OversizedResult[], signal: AbortSignal) {
  const { db, row, task, attempt, agent, writer, delegatedBy } = at;
  const own = await agentTools(
    agent,
    {
      db,
      executionId: row.id,
      crew: row.crew_snapshot,
      taskId: task.id,
      attempt,
      agentId: agent.id,
    },
    (r) => oversized.push(r),
    // A coworker works inside the asking agent's tool call: it cannot stop there for a person.
    { refuseGated: !!delegatedBy },
  );
  for (const message of own.warnings) writer.record(() => toolWarning(at, message));
  const coworkers = delegatedBy ? [] : coworkersOf(row.crew_snapshot, task, agent);
  // The team as the model reads it in the tools' description: roles and goals with the inputs in.
  const team = coworkers.map((a) => agentWithInputs(a, row.inputs));
  const tools: Record<string, Tool> = tracedTools({
    ...own.tools,
    ...delegationTools(team, (req) => askCoworker(at, req, signal)),
  });
  return { tools, listed: own.listed };
}

function toolWarning({ task, attempt, agent, delegatedBy }: AgentAt, message: string): Change {
  return {
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
  };
}

/** A coworker's answer to the agent's request, worked out in the same task. */
async function askCoworker(
  at: AgentAt,
  { kind, coworker, request, context }: CoworkerRequest & { kind: "delegate" | "ask" },
  signal: AbortSignal,
): Promise<string> {
  const helper = agentWork({ ...at, agent: coworker, delegatedBy: at.agent });
  const { agent, task, row } = at;
  const asked = coworkerPrompt({
    agent,
    coworker,
    task,
    inputs: row.inputs,
    kind,
    request,
    context,
  });
  return (await helper.run({ ...asked, signal })).output;
}

/** The paused calls, now decided, run; the conversation to go on with. */
async function decidedCallsRun(
  { index, writer }: AgentAt,
  resume: NonNullable<Ask["resume"]>,
  tools: Record<string, Tool>,
  signal: AbortSignal,
  onStep: ReturnType<typeof recordSteps>,
): Promise<ModelMessage[]> {
  const settled = await settleDecidedCalls(resume.paused, resume.decided, tools, signal);
  // The decided calls' results and the end of the pause in one change: a worker that takes
  // the run over after this starts the task afresh rather than running the calls again.
  await onStep(settled.steps, { input_tokens: 0, output_tokens: 0 }, (r) => ({
    tasks: r.tasks.map((t, i) => (i === index ? { ...t, paused: undefined } : t)),
  }));
  await writer.flush(); // the calls ran: stored before the agent goes on
  return settled.messages;
}
