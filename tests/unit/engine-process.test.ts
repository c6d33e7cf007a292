import { describe, expect, it } from "vitest";
import { engineHarness } from "../support/engine-harness";

// CrewAI's process semantics on the real engine and the offline model: async tasks side by side,
// a hierarchical manager handing out tasks, delegation, and max_iter.
const TEAM = `
  researcher:
    role: Senior Research Analyst
    goal: "Find facts about {topic}"
    backstory: Thorough.
  writer:
    role: Content Writer
    goal: "Write articles about {topic}"
    backstory: Clear.
`;

const engine = engineHarness({
  parallel: `
agents:
  solo:
    role: Analyst
    goal: "Study {topic}"
    backstory: Quick.
tasks:
  costs:
    description: "List the costs of {topic}."
    expected_output: Costs.
    agent: solo
    async_execution: true
  risks:
    description: "List the risks of {topic}."
    expected_output: Risks.
    agent: solo
    async_execution: true
  summary:
    description: "Weigh costs against risks of {topic}."
    expected_output: A verdict.
    agent: solo
    context: [costs, risks]
`,
  "parallel-fails": `
agents:
  solo:
    role: Analyst
    goal: "Study {topic}"
    backstory: Quick.
  broken:
    role: Broken
    goal: Fail
    backstory: Has no key.
    llm: openai/gpt-4o
tasks:
  fine:
    description: "Study {topic}."
    expected_output: Notes.
    agent: solo
    async_execution: true
  doomed:
    description: "Fail on {topic}."
    expected_output: Nothing.
    agent: broken
    async_execution: true
  after:
    description: "Never runs."
    expected_output: Nothing.
    agent: solo
`,
  managed: `
process: hierarchical
manager_llm: offline
agents:${TEAM}
tasks:
  research:
    description: "Research the facts about {topic}."
    expected_output: Facts.
  article:
    description: "Write an article about {topic}."
    expected_output: An article.
`,
  delegating: `
agents:
  lead:
    role: Editor in chief
    goal: "Publish on {topic}"
    backstory: Delegates.
    allow_delegation: true
${TEAM}
tasks:
  piece:
    description: "Write an article about {topic}."
    expected_output: An article.
    agent: lead
`,
  limited: `
agents:
  busy:
    role: Busy
    goal: "Count {topic}"
    backstory: Uses every tool.
    tools: [word_count, current_date]
    max_iter: 1
    max_rpm: 600
tasks:
  count:
    description: "Count the words about {topic}."
    expected_output: A count.
    agent: busy
`,
});

const INPUTS = { topic: "tidal power" };
const done = (r: { status: string }) => r.status === "completed";

describe("async_execution", () => {
  it("runs consecutive async tasks side by side; the next task waits for both", async () => {
    const id = await engine.kickoff("parallel", INPUTS);
    const row = await engine.waitFor(id, done);
    const log = await engine.events(id);
    const at = (type: string, task: string) =>
      log.findIndex((e) => e.type === type && e.task_id === task);
    // Both started before either did anything else.
    const firstWork = log.findIndex(
      (e) => (e.task_id === "costs" || e.task_id === "risks") && e.type !== "task_started",
    );
    expect(at("task_started", "costs")).toBeLessThan(firstWork);
    expect(at("task_started", "risks")).toBeLessThan(firstWork);
    // The joining task starts after both completed, and builds on both.
    expect(at("task_started", "summary")).toBeGreaterThan(at("task_completed", "costs"));
    expect(at("task_started", "summary")).toBeGreaterThan(at("task_completed", "risks"));
    const summary = row.tasks.find((t) => t.task_id === "summary");
    expect(summary?.output).toMatch(/costs/);
    expect(summary?.output).toMatch(/risks/);
    expect(row.tasks.map((t) => t.status)).toEqual(["completed", "completed", "completed"]);
  });

  it("a failing parallel task fails the run and leaves nothing running", async () => {
    const id = await engine.kickoff("parallel-fails", INPUTS);
    const row = await engine.waitFor(id, (r) => r.status === "error");
    expect(row.error).toMatch(/OPENAI_API_KEY/);
    const byId = Object.fromEntries(row.tasks.map((t) => [t.task_id, t]));
    expect(byId.doomed?.status).toBe("error");
    // Its neighbour either finished first or was stopped with it, saying why.
    expect(["completed", "error"]).toContain(byId.fine?.status);
    if (byId.fine?.status === "error")
      expect(byId.fine.error).toBe("Stopped: task 'doomed' failed.");
    expect(byId.after?.status).toBe("pending");
  });
});

describe("process: hierarchical", () => {
  it("the manager hands each task to the agent it suits and answers with their work", async () => {
    const id = await engine.kickoff("managed", INPUTS);
    const row = await engine.waitFor(id, done);
    const log = await engine.events(id);
    const handedTo = (task: string) =>
      log.find(
        (e) =>
          e.task_id === task &&
          e.type === "tool_call" &&
          e.data.tool === "delegate_work_to_coworker",
      )?.data.tool_input as { coworker?: string } | undefined;
    expect(handedTo("research")?.coworker).toBe("researcher");
    expect(handedTo("article")?.coworker).toBe("writer");
    // The coworker's own steps are in the task, saying who delegated.
    const byWriter = log.filter((e) => e.task_id === "article" && e.data.agent === "writer");
    expect(byWriter.map((e) => e.type)).toContain("answer");
    expect(byWriter.every((e) => e.data.delegated_by === "crew_manager")).toBe(true);
    expect(row.tasks.map((t) => t.agent)).toEqual(["crew_manager", "crew_manager"]);
    expect(row.result).toMatch(/Checked by Crew Manager/);
    expect(row.result).toMatch(/As:\*\* Content Writer/);
  });
});

describe("allow_delegation", () => {
  it("an agent that may delegate hands work to a coworker through CrewAI's tool", async () => {
    const id = await engine.kickoff("delegating", INPUTS);
    const row = await engine.waitFor(id, done);
    const calls = (await engine.events(id)).filter((e) => e.type === "tool_call");
    expect(calls.map((e) => [e.data.agent, e.data.tool])).toEqual([
      ["lead", "delegate_work_to_coworker"],
    ]);
    expect(calls[0]?.data.tool_input).toMatchObject({ coworker: "writer" });
    expect(row.result).toMatch(/Checked by Editor in chief/);
  });
});

describe("max_iter", () => {
  it("out of steps, the agent gives its final answer without more tools", async () => {
    const id = await engine.kickoff("limited", INPUTS);
    const row = await engine.waitFor(id, done);
    const steps = (await engine.events(id)).filter((e) =>
      ["tool_call", "tool_result", "answer"].includes(e.type),
    );
    // Two tools, one step: one call, then the answer (without max_iter it would call both).
    expect(steps.map((e) => e.type)).toEqual(["tool_call", "tool_result", "answer"]);
    expect(row.result).toMatch(/word_count/);
  });
});
