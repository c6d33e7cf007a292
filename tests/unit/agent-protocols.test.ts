import path from "node:path";
import { verifyEvents } from "@ag-ui/client";
import { EventSchemas } from "@ag-ui/core/schemas";
import { from } from "rxjs";
import { describe, expect, it } from "vitest";
import { startedByText } from "@/components/run/run-types";
import { startedByLabel } from "@/components/runs/model";
import type { ExecutionEvent, StatusResponse } from "@/lib/contract/status";
import { loadCrews } from "@/lib/crew/load-crews";
import { crewCard, hostCard } from "@/lib/protocols/a2a/card";
import { AgUiTranslator } from "@/lib/protocols/ag-ui/events";
import { inputsFromMessage } from "@/lib/protocols/inputs";
import { decisionFromData, decisionFromText } from "@/lib/protocols/runs";
import { a2aProblems } from "../support/a2a-schema";

const crews = [
  ...loadCrews(path.resolve("tests/fixtures/crews")).crews.values(),
  ...loadCrews(path.resolve("crews")).crews.values(),
];
const crew = (slug: string) => {
  const found = crews.find((c) => c.slug === slug);
  if (!found) throw new Error(slug);
  return found;
};

describe("A2A agent cards", () => {
  it("every example and fixture crew's card, and the host's, hold to a2a.proto", () => {
    expect(crews.length).toBeGreaterThan(20);
    for (const c of crews) expect(a2aProblems("AgentCard", crewCard(c)), c.slug).toEqual([]);
    expect(a2aProblems("AgentCard", hostCard())).toEqual([]);
    expect(a2aProblems("AgentCard", hostCard(crews))).toEqual([]);
  });

  it("the check refuses what the schema does not have", () => {
    const card = crewCard(crew("review"));
    expect(a2aProblems("AgentCard", { ...card, skills: "draft" })).toEqual([
      "AgentCard.skills: not a list",
    ]);
    expect(a2aProblems("AgentCard", { ...card, colour: "red" })).toEqual([
      "AgentCard.colour: not a field of AgentCard",
    ]);
    const scheme = { httpAuthSecurityScheme: { scheme: "Bearer" }, apiKeySecurityScheme: {} };
    expect(a2aProblems("AgentCard", { ...card, securitySchemes: { bearer: scheme } })).toEqual([
      "AgentCard.securitySchemes.bearer.apiKeySecurityScheme.location: required by APIKeySecurityScheme",
      "AgentCard.securitySchemes.bearer.apiKeySecurityScheme.name: required by APIKeySecurityScheme",
      "AgentCard.securitySchemes.bearer: apiKeySecurityScheme and httpAuthSecurityScheme are one of scheme",
    ]);
  });
});

describe("reading a chat message", () => {
  it("fills the one input from text, or takes data and JSON as the inputs", () => {
    expect(inputsFromMessage(crew("review"), { text: " otters " })).toEqual({ subject: "otters" });
    expect(inputsFromMessage(crew("review"), { text: '{"subject":"owls"}' })).toEqual({
      subject: "owls",
    });
    expect(
      inputsFromMessage(crew("review"), { data: { inputs: { subject: "bats" } }, text: "" }),
    ).toEqual({ subject: "bats" });
    expect(inputsFromMessage(crew("no-inputs"), { text: "anything" })).toEqual({});
  });

  it("a crew of several inputs wants them by name", () => {
    expect(() => inputsFromMessage(crew("typed-inputs"), { text: "just words" })).toThrow(
      /takes several inputs \(.*topic.*\)/,
    );
  });

  it("reads a decision as CrewAI reads human_input: nothing or approval accepts, words send back", () => {
    expect(decisionFromText("")).toMatchObject({ approve: true });
    expect(decisionFromText("LGTM.")).toMatchObject({ approve: true });
    expect(decisionFromText("Mention rivers")).toEqual({
      approve: false,
      feedback: "Mention rivers",
    });
    expect(decisionFromData({ approved: true, edited_output: "Better." })).toEqual({
      approve: true,
      feedback: "",
      editedOutput: "Better.",
    });
    expect(() => decisionFromData({ feedback: "no verdict" })).toThrow(/invalid/);
  });
});

const event = (seq: number, type: string, task_id: string | null, data = {}): ExecutionEvent => ({
  seq,
  type,
  task_id,
  attempt: 1,
  data,
  created_at: new Date(0).toISOString(),
});

function run(over: Partial<StatusResponse>): StatusResponse {
  return {
    kickoff_id: "7f0c1a9e-0000-4000-8000-000000000001",
    crew: "f",
    status: "running",
    result: null,
    error: null,
    pending_human_inputs: [],
    flow: { state: { topic: "otters" } },
    ...over,
  } as StatusResponse;
}

async function verified(events: object[]) {
  for (const e of events) expect(EventSchemas.safeParse(e).success, JSON.stringify(e)).toBe(true);
  const out: unknown[] = [];
  await new Promise<void>((resolve, reject) =>
    // biome-ignore lint/suspicious/noExplicitAny: rxjs of the client's own copy, same protocol
    (from(events) as any).pipe(verifyEvents(false)).subscribe({
      next: (e: unknown) => out.push(e),
      error: reject,
      complete: resolve,
    }),
  );
  return out;
}

describe("AG-UI events", () => {
  it("a run's log becomes steps, messages, tool calls and state, ending in an interrupt", async () => {
    const ui = new AgUiTranslator("thread", "run-1");
    const started = run({});
    const log = [
      event(1, "execution_started", null),
      event(2, "task_started", "research"),
      event(3, "tool_call", "research", {
        tool: "search",
        tool_input: { q: "otters" },
        call_id: "c1",
      }),
      event(4, "tool_result", "research", { tool: "search", result: { hits: 3 }, call_id: "c1" }),
      event(5, "answer", "research", { text: "Otters hold hands." }),
      event(6, "task_completed", "research", { output: "Otters hold hands." }),
      event(7, "flow_method_finished", "research", { state: { topic: "otters", facts: 1 } }),
      event(8, "task_started", "write"),
      event(9, "review_requested", "write", { output: "Draft" }),
    ];
    const waiting = run({
      status: "pending_human_input",
      pending_human_inputs: [{ task_id: "write", attempt: 1, output: "Draft", kind: "output" }],
    } as Partial<StatusResponse>);
    const events = [
      ...ui.start(started),
      ...log.flatMap((e) => ui.event(e, started.kickoff_id)),
      ...ui.finish(waiting),
    ];
    expect(await verified(events)).toHaveLength(events.length);
    expect(events.map((e) => e.type)).toEqual([
      "RUN_STARTED",
      "STATE_SNAPSHOT",
      "STEP_STARTED",
      "TOOL_CALL_START",
      "TOOL_CALL_ARGS",
      "TOOL_CALL_END",
      "TOOL_CALL_RESULT",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
      "STEP_FINISHED",
      "STATE_DELTA",
      "STEP_STARTED",
      "STEP_FINISHED", // the step awaiting review closes with the AG-UI run
      "RUN_FINISHED",
    ]);
    expect(events.find((e) => e.type === "STATE_DELTA")).toMatchObject({
      delta: [{ op: "add", path: "/facts", value: 1 }],
    });
    expect(events.at(-1)).toMatchObject({
      outcome: { type: "interrupt", interrupts: [{ id: `${started.kickoff_id}:write:1` }] },
    });
  });

  it("a failed run ends in RUN_ERROR, a stopped one as cancelled", async () => {
    const failed = new AgUiTranslator("t", "r");
    const events = [
      ...failed.start(run({ flow: null })),
      ...failed.finish(run({ status: "error", error: "model down" })),
    ];
    expect(await verified(events)).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: "RUN_ERROR", message: /model down/ });
    const stopped = new AgUiTranslator("t", "r2");
    expect(stopped.finish(run({ status: "cancelled" })).at(-1)).toMatchObject({
      outcome: { type: "cancelled" },
    });
  });
});

describe("runs started over a protocol", () => {
  it("say which one, in the runs list and on the run page", () => {
    const by = { via: "api", name: "ci-bot" } as const;
    expect(startedByLabel(by, { protocol: "mcp" })).toBe("MCP · ci-bot");
    expect(startedByLabel(by, { protocol: "something-else" })).toBe("API · ci-bot");
    expect(startedByText(by, { protocol: "a2a" })).toBe("token ci-bot, over A2A");
    expect(startedByText({ via: "api", name: null }, { protocol: "ag-ui" })).toBe("over AG-UI");
  });
});
