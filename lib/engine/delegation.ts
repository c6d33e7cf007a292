import { type Tool, tool } from "ai";
import { z } from "zod";
import type { AgentDef, CrewDef, TaskDef } from "@/lib/crew/schema";

// CrewAI's two delegation tools: an agent with `allow_delegation`, or the manager of a
// hierarchical crew, hands work to a coworker or asks them a question. The coworker works on it
// as an agent of its own (its model, its tools), recorded in the same task, and its answer is
// the tool's result.
const DELEGATE_TOOL = "delegate_work_to_coworker";
const ASK_TOOL = "ask_question_to_coworker";

export type CoworkerRequest = { coworker: AgentDef; request: string; context: string };

/** Who `agent` may hand work to on `task`: none unless it is the manager or may delegate. */
export function coworkersOf(crew: CrewDef, task: TaskDef, agent: AgentDef): AgentDef[] {
  const others = crew.agents.filter((a) => a.id !== agent.id && a.id !== crew.manager?.id);
  if (crew.manager && agent.id === crew.manager.id)
    return task.delegate_to ? others.filter((a) => a.id === task.delegate_to) : others;
  return agent.allow_delegation ? others : [];
}

/** The agent that runs `task`: its own, or under a hierarchical process the manager. */
export function agentFor(crew: CrewDef, task: TaskDef): AgentDef | undefined {
  if (crew.manager && task.agent === crew.manager.id) return crew.manager;
  return crew.agents.find((a) => a.id === task.agent);
}

export function delegationTools(
  coworkers: AgentDef[],
  work: (req: CoworkerRequest & { kind: "delegate" | "ask" }) => Promise<string>,
): Record<string, Tool> {
  const [first, ...others] = coworkers;
  if (!first) return {};
  const ids: [string, ...string[]] = [first.id, ...others.map((a) => a.id)];
  // One line per coworker, so a model (and the offline one) can tell who does what.
  const team = coworkers.map((a) => `- ${a.id}: ${a.role}. ${a.goal}`).join("\n");
  const coworker = z.enum(ids).describe("The id of the coworker, one of the list above");
  // The tools' schema allows only these ids.
  const byId = (id: string) => {
    const agent = coworkers.find((a) => a.id === id);
    if (!agent) throw new Error(`no coworker '${id}'`);
    return agent;
  };
  return {
    [DELEGATE_TOOL]: tool({
      description: `Hand a piece of work to a coworker, who does it and returns the result. Coworkers:\n${team}`,
      inputSchema: z.object({
        task: z.string().min(1).max(20_000).describe("What the coworker should do, in full"),
        context: z
          .string()
          .max(50_000)
          .default("")
          .describe("Everything the coworker needs to know to do it"),
        coworker,
      }),
      execute: async (input) =>
        work({
          kind: "delegate",
          coworker: byId(input.coworker),
          request: input.task,
          context: input.context,
        }),
    }),
    [ASK_TOOL]: tool({
      description: `Ask a coworker a question and get their answer. Coworkers:\n${team}`,
      inputSchema: z.object({
        question: z.string().min(1).max(20_000).describe("The question, in full"),
        context: z.string().max(50_000).default("").describe("What the coworker needs to answer"),
        coworker,
      }),
      execute: async (input) =>
        work({
          kind: "ask",
          coworker: byId(input.coworker),
          request: input.question,
          context: input.context,
        }),
    }),
  };
}
