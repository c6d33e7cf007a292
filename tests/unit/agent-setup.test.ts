import { describe, expect, it } from "vitest";
import type { AgentDef } from "@/lib/crew/schema";
import {
  agentWithInputs,
  argumentsShown,
  coworkerPrompt,
  gatedCallsShown,
  mayDrawOnBudget,
  stepsLeft,
  stepsShown,
} from "@/lib/engine/agent-setup";
import type { AgentTool } from "@/lib/tools/types";
import { PlaceholderBudgetError } from "@/lib/util/placeholders";
import { def } from "../support/review-rows";

// What an agent's attempt is set up with, decided on data alone: the team with the inputs in, a
// coworker's prompt, the steps left after a pause, and tool arguments shown without secrets.

const agentOf = (id: string, role: string, goal = "help"): AgentDef => ({
  id,
  role,
  goal,
  backstory: "B",
  tools: [],
  mcps: [],
  apps: [],
});
const inputs = { topic: "tides" };

describe("the team with the run's inputs", () => {
  it("fills role and goal, and leaves the backstory", () => {
    const a = { ...agentOf("w", "Writer on {topic}", "explain {topic}"), backstory: "{topic}" };
    expect(agentWithInputs(a, inputs)).toEqual({
      ...a,
      role: "Writer on tides",
      goal: "explain tides",
    });
  });

  it("names the agent's field past its budget", () => {
    const a = agentOf("w", "{topic}".repeat(10));
    expect(() => agentWithInputs(a, { topic: "x".repeat(300_000) })).toThrow(
      PlaceholderBudgetError,
    );
  });
});

describe("a coworker's prompt", () => {
  const agent = agentOf("lead", "Lead of {topic}");
  const coworker = agentOf("helper", "Helper");
  const task = def("t", { context: ["other"] });
  const ask = (kind: "ask" | "delegate", context: string) =>
    coworkerPrompt({ agent, coworker, task, inputs, kind, request: "Find X", context });

  it("asks a question for a clear answer, a delegation for the complete result", () => {
    const question = ask("ask", "");
    expect(question.system).toContain("You are Helper.");
    expect(question.prompt).toContain("# Task\nFind X");
    expect(question.prompt).toContain("A clear, complete answer to the question.");
    expect(ask("delegate", "").prompt).toContain(
      "The complete result of this work, to hand back to your coworker.",
    );
  });

  it("gives the asking agent's context under its role, and none when blank", () => {
    expect(ask("ask", "Notes so far").prompt).toContain(
      "# Context\n### From Lead of tides (t)\nNotes so far",
    );
    expect(ask("ask", "  \n").prompt).not.toContain("# Context");
  });

  it("fills the asking agent's role only when there is context to name it by", () => {
    const long = { topic: "x".repeat(300_000) };
    const big = { ...agent, role: "{topic}".repeat(10) };
    const make = (context: string) => () =>
      coworkerPrompt({
        agent: big,
        coworker,
        task,
        inputs: long,
        kind: "ask",
        request: "Q",
        context,
      });
    expect(make("")).not.toThrow();
    expect(make("notes")).toThrow(PlaceholderBudgetError);
  });
});

describe("the steps an attempt has left", () => {
  it("are all of them unless a pause used some, and never none", () => {
    expect(stepsLeft(10, undefined)).toBe(10);
    expect(stepsLeft(10, 0)).toBe(10);
    expect(stepsLeft(10, 4)).toBe(6);
    expect(stepsLeft(10, 10)).toBe(1);
    expect(stepsLeft(10, 12)).toBe(1);
  });
});

describe("tool arguments as shown", () => {
  const listed: AgentTool[] = [
    {
      name: "mcp_db",
      tool: { inputSchema: {} } as AgentTool["tool"],
      writes: true,
      source: "mcp",
      server: "db",
      redact: (input) => ({ ...(input as object), password: "•••" }),
    },
    {
      name: "search",
      tool: { inputSchema: {} } as AgentTool["tool"],
      writes: false,
      source: "builtin",
    },
  ];
  const shown = argumentsShown(listed);

  it("blot out a tool's secrets, and leave other tools' and unknown tools' as they are", () => {
    expect(shown("mcp_db", { q: 1, password: "p" })).toEqual({ q: 1, password: "•••" });
    expect(shown("search", { q: "x" })).toEqual({ q: "x" });
    expect(shown("gone", { q: "x" })).toEqual({ q: "x" });
  });

  it("in recorded steps, only a tool call's input", () => {
    const steps = [
      { type: "tool_call" as const, tool: "mcp_db", tool_input: { password: "p" }, call_id: "1" },
      { type: "tool_result" as const, tool: "mcp_db", result: { password: "p" }, call_id: "1" },
      { type: "answer" as const, text: "done" },
    ];
    expect(stepsShown(steps, shown)).toEqual([
      { ...steps[0], tool_input: { password: "•••" } },
      steps[1],
      steps[2],
    ]);
  });

  it("in calls awaiting approval, with where each tool comes from", () => {
    const calls = [
      { call_id: "1", tool: "mcp_db", arguments: { password: "p" }, input_schema: {} },
      { call_id: "2", tool: "gone", arguments: { a: 1 }, input_schema: {} },
    ];
    expect(gatedCallsShown(calls, listed)).toEqual([
      {
        call_id: "1",
        tool: "mcp_db",
        arguments: { password: "•••" },
        input_schema: {},
        source: "mcp",
        writes: true,
        server: "db",
      },
      calls[1],
    ]);
  });
});

describe("which runs draw on a spend budget", () => {
  it("an experiment's cell and a run nested in one; no other", () => {
    expect(mayDrawOnBudget({ parent_id: null, meta: null })).toBe(false);
    expect(mayDrawOnBudget({ parent_id: null, meta: { source: "x" } })).toBe(false);
    expect(mayDrawOnBudget({ parent_id: null, meta: { experiment: "ex1" } })).toBe(true);
    expect(mayDrawOnBudget({ parent_id: "flow", meta: null })).toBe(true);
  });
});
