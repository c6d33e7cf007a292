import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { crewClient, type Json, until } from "../support/api";
import { startFakeOpenAI } from "../support/fake-openai";
import { dbMode, type Proc, TEST_CREW_TOKEN, tempDir } from "../support/harness";
import { startTopology } from "../support/topology";

// A flow's worker SIGKILLed while a method's nested crew is mid-task: the run goes on from that
// method, and nothing finished runs again. Embedded: the worker lives in the web process, which is
// killed and started again. PostgreSQL: a worker process is killed and another takes over.
const mode = dbMode();
const procs: Proc[] = [];
afterAll(async () => {
  await Promise.all(procs.map((p) => p.kill("SIGKILL")));
});

const crew = (step: string) => `
      call: crew
      with:
        agents:
          writer: { role: Writer, goal: "Write on {topic}", backstory: Steady. }
        tasks:
${["a", "b", "c"]
  .map(
    (t) =>
      `          - { name: ${step}_${t}, description: "Part ${t} on {topic}", expected_output: Notes., agent: writer }`,
  )
  .join("\n")}
      inputs:
        topic: "\${outputs.first}"`;

const FLOW = `schema: crewai.flow/v1
name: KillFlow
methods:
  first:
    start: true
    do: { call: expression, expr: "'tides'" }
  second:
    listen: first
    do:${crew("second")}
  third:
    listen: second
    do:${crew("third")}
  last:
    listen: third
    do: { call: expression, expr: "'done: ' + outputs.third.raw.substring(0, 2)" }
`;

function crewsDir() {
  const crews = tempDir("flow-kill-crews");
  fs.mkdirSync(path.join(crews, "kill-flow"), { recursive: true });
  fs.writeFileSync(path.join(crews, "kill-flow", "flow.yaml"), FLOW);
  return crews;
}

describe("a flow across a SIGKILL", () => {
  it("goes on from the method that was running, and runs no finished method again", async () => {
    // The model holds the call of `second`'s task b while `holding`: `first` is done and
    // `second`'s crew is mid-task when the kill lands, however fast or slow this machine is.
    // Every other call is answered; the next worker is answered throughout.
    let holding = true;
    let held = 0;
    const model = await startFakeOpenAI({
      scripted: ({ messages }) => {
        if (holding && JSON.stringify(messages).includes("Part b on tides")) {
          held += 1;
          return "hold";
        }
        return { message: { content: "## Notes" }, finish: "stop" };
      },
    });
    onTestFinished(() => model.close());
    const t = await startTopology(mode, procs, {
      CREWS_DIR: crewsDir(),
      DEFAULT_LLM: "openai/gpt-test",
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: "test-key",
    });
    const flow = crewClient(t.url(), "kill-flow", TEST_CREW_TOKEN);
    const id = await flow.start({});
    await until(
      "second's task b at the model",
      () => held,
      (n) => n > 0,
    );
    const mid = await flow.status(id);
    expect(mid.json.flow.current.method).toBe("second");
    const nested = mid.json.flow.current.nested_run as string;
    await t.killWorker();
    holding = false;
    await t.startWorker();

    // Embedded, the web server was the worker: it came back on a new port.
    const after = crewClient(t.url(), "kill-flow", TEST_CREW_TOKEN);
    const done = await after.waitFor(id, (s) => s.state === "SUCCESS" || s.state === "FAILED");
    expect(done.status, done.error).toBe("completed");
    expect(done.result).toBe("done: ##");
    expect(done.flow.path.map((p: Json) => p.method)).toEqual(["first", "second", "third", "last"]);
    // Each method started and ended once; the one cut short went on, not again.
    const events = (await after.events(id)).json.events as Json[];
    for (const type of ["task_started", "task_completed"])
      expect(events.filter((e) => e.type === type).map((e) => e.task_id)).toEqual([
        "first",
        "second",
        "third",
        "last",
      ]);
    // One nested run per crew method: the one cut short was taken over, not started again.
    const runs = done.flow.path.flatMap((p: Json) => p.nested_runs);
    expect(runs).toHaveLength(2);
    expect(runs[0]).toBe(nested);
    const childEvents = ((await after.events(nested)).json.events as Json[]).map((e) => e.type);
    expect(childEvents).toContain("execution_recovered");
    expect(childEvents.filter((e) => e === "execution_completed")).toHaveLength(1);
  });
});
