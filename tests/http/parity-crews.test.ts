import { describe, expect, inject, it } from "vitest";
import { call, crewClient, type Json } from "../support/api";
import { TEST_CREW_TOKEN } from "../support/harness";

// The parity crews (tests/fixtures/crews/parity-*): every CrewAI key Crewdeck honours, in both of
// CrewAI's project layouts, run end to end on the offline model.
const baseUrl = inject("baseUrl");
type Event = { type: string; task_id: string | null; data: Json };

async function eventsOf(crew: ReturnType<typeof crewClient>, id: string): Promise<Event[]> {
  return (await crew.events(id)).json.events;
}

describe("parity-yaml: CrewAI's YAML project with crew.py", () => {
  const crew = crewClient(baseUrl, "parity-yaml", TEST_CREW_TOKEN);

  it("loads with agents from crew.py, and runs every key on the offline model", async () => {
    const id = await crew.start({ topic: "tidal power" });
    const paused = await crew.waitFor(id, (s) => s.status === "pending_human_input");
    expect(paused.pending_human_input.task_id).toBe("summary_task");
    const log = await eventsOf(crew, id);
    const index = (type: string, task: string) =>
      log.findIndex((e) => e.type === type && e.task_id === task);

    // async_execution (from crew.py): both research tasks start before either completes.
    const firstDone = Math.min(
      index("task_completed", "research_task"),
      index("task_completed", "market_task"),
    );
    expect(index("task_started", "market_task")).toBeLessThan(firstDone);
    expect(index("task_started", "research_task")).toBeLessThan(firstDone);
    expect(index("task_started", "reporting_task")).toBeGreaterThan(
      Math.max(index("task_completed", "research_task"), index("task_completed", "market_task")),
    );

    // allow_delegation: the reporting analyst hands work to a coworker.
    const handOver = log.find(
      (e) => e.task_id === "reporting_task" && e.data.tool === "delegate_work_to_coworker",
    );
    expect(handOver?.type).toBe("tool_call");

    // output_json: the report is JSON of the schema; output_file keeps it with the run.
    const report = paused.tasks.find((t: Json) => t.task_id === "reporting_task");
    expect(Object.keys(JSON.parse(report.output)).sort()).toEqual(["sections", "title"]);

    // guardrail: fails once, then the revised summary passes.
    const checks = log.filter(
      (e) => e.task_id === "summary_task" && e.type.startsWith("guardrail"),
    );
    expect(checks.map((e) => e.type)).toEqual(["guardrail_failed", "guardrail_passed"]);

    // human_input (from crew.py's task's YAML): approve, and the run completes.
    const r = await crew.resume({
      execution_id: id,
      task_id: "summary_task",
      human_feedback: "Good.",
      is_approve: true,
    });
    expect(r.json.status).toBe("completed");
    const files = await call(baseUrl, "GET", `/api/crews/parity-yaml/executions/${id}/artifacts`, {
      token: TEST_CREW_TOKEN,
    });
    expect(files.json.artifacts.map((a: Json) => a.name).sort()).toEqual([
      "reports/tidal-power.json",
      "summary.md",
    ]);
  });
});

describe("parity-jsonc: CrewAI's JSON project, hierarchical", () => {
  const crew = crewClient(baseUrl, "parity-jsonc", TEST_CREW_TOKEN);

  it("the manager hands each task to the agent it suits; JSON output, guardrails, files", async () => {
    // inputs in crew.jsonc are defaults: nothing to give.
    const id = await crew.start({});
    const done = await crew.waitFor(id, (s) => s.status === "completed");
    const log = await eventsOf(crew, id);
    const handedTo = (task: string) =>
      log.find((e) => e.task_id === task && e.data.tool === "delegate_work_to_coworker")?.data
        .tool_input.coworker;
    expect(handedTo("facts")).toBe("researcher");
    expect(handedTo("article")).toBe("writer");
    expect(done.tasks.map((t: Json) => t.agent)).toEqual(["crew_manager", "crew_manager"]);
    // The schema allows more keys: the offline model adds its label.
    expect(Object.keys(JSON.parse(done.result))).toEqual(
      expect.arrayContaining(["body", "headline"]),
    );
    expect(done.crew_output.output).toBe(done.result);
    expect(log.some((e) => e.task_id === "article" && e.type === "guardrail_passed")).toBe(true);
    const files = await call(baseUrl, "GET", `/api/crews/parity-jsonc/executions/${id}/artifacts`, {
      token: TEST_CREW_TOKEN,
    });
    expect(files.json.artifacts.map((a: Json) => a.name)).toEqual(["article.json"]);
  });
});
