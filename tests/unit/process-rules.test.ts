import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadCrews } from "@/lib/crew/load-crews";
import { CallsPerMinute } from "@/lib/engine/calls-per-minute";
import { nextTasks } from "@/lib/run-model/next-tasks";

// What a crew may say about its process, checked when it loads; and the max_rpm limiter.
function load(yaml: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-process-"));
  fs.mkdirSync(path.join(dir, "c"));
  fs.writeFileSync(path.join(dir, "c", "crew.yaml"), yaml);
  const catalog = loadCrews(dir);
  fs.rmSync(dir, { recursive: true, force: true });
  return catalog;
}

const AGENTS = `agents:
  a: { role: A, goal: G, backstory: B }
  b: { role: B, goal: G, backstory: B }
`;
const task = (id: string, extra = "") =>
  `  ${id}:\n    description: D\n    expected_output: E\n${extra}`;

describe("process keys at load", () => {
  it("hierarchical: tasks need no agent; a named agent is the one the manager may use", () => {
    const { crews, errors, warnings } = load(
      `process: hierarchical\n${AGENTS}tasks:\n${task("t1")}${task("t2", "    agent: b\n")}`,
    );
    expect(errors).toEqual([]);
    const crew = crews.get("c");
    expect(crew?.process).toBe("hierarchical");
    expect(crew?.manager).toMatchObject({ id: "crew_manager", role: "Crew Manager" });
    expect(crew?.tasks.map((t) => [t.agent, t.delegate_to])).toEqual([
      ["crew_manager", undefined],
      ["crew_manager", "b"],
    ]);
    expect(warnings.map((w) => w.key)).toContain("manager_llm");
  });

  it("manager_agent names one of the agents, who is not also a coworker", () => {
    const ok = load(
      `process: hierarchical\nmanager_agent: a\n${AGENTS}tasks:\n${task("t1")}`,
    ).crews.get("c");
    expect(ok?.manager?.id).toBe("a");
    const bad = load(`process: hierarchical\nmanager_agent: zed\n${AGENTS}tasks:\n${task("t1")}`);
    expect(bad.errors[0]).toMatchObject({ key: "manager_agent" });
    expect(bad.errors[0]?.reason).toMatch(/'zed' is not an agent of this crew \(agents: a, b\)/);
  });

  it("sequential: a task without an agent in a crew of several says what to add", () => {
    const { errors } = load(`${AGENTS}tasks:\n${task("t1")}`);
    expect(errors[0]?.key).toBe("tasks.t1.agent");
  });

  it("async_execution: a task in a parallel group may wait for review", () => {
    const { errors, crews } = load(
      `${AGENTS}tasks:\n${task("t1", "    agent: a\n    async_execution: true\n    human_input: true\n")}${task("t2", "    agent: a\n")}`,
    );
    expect(errors).toEqual([]);
    expect(crews.get("c")?.tasks[0]).toMatchObject({ async_execution: true, human_input: true });
  });

  it("async_execution: no context from a neighbour of the same group", () => {
    const { errors } = load(
      `${AGENTS}tasks:\n${task("t1", "    agent: a\n    async_execution: true\n")}${task("t2", "    agent: a\n    async_execution: true\n    context: [t1]\n")}${task("t3", "    agent: a\n")}`,
    );
    expect(errors[0]).toMatchObject({ key: "tasks.t2.context" });
    expect(errors[0]?.reason).toMatch(/runs in parallel/);
  });

  it("async_execution: the crew ends on at most one async task", () => {
    const { errors } = load(
      `${AGENTS}tasks:\n${task("t0", "    agent: a\n")}${task("t1", "    agent: a\n    async_execution: true\n")}${task("t2", "    agent: a\n    async_execution: true\n")}`,
    );
    expect(errors[0]?.reason).toMatch(/ends with 2 async tasks/);
  });
});

describe("nextTasks", () => {
  const defs = ["a", "b", "c", "d"].map((id, i) => ({
    id,
    name: id,
    description: "D",
    expected_output: "E",
    agent: "x",
    human_input: false,
    async_execution: i === 1 || i === 2,
  }));
  const states = (...done: string[]) =>
    defs.map((d) => ({
      task_id: d.id,
      status: done.includes(d.id) ? "completed" : "pending",
    })) as never;

  it("a plain task alone; a group of async tasks together; what is left of a group after a crash", () => {
    expect(nextTasks(defs, states())).toEqual([0]);
    expect(nextTasks(defs, states("a"))).toEqual([1, 2]);
    expect(nextTasks(defs, states("a", "c"))).toEqual([1]);
    expect(nextTasks(defs, states("a", "b", "c"))).toEqual([3]);
    expect(nextTasks(defs, states("a", "b", "c", "d"))).toEqual([]);
  });
});

describe("CallsPerMinute (max_rpm)", () => {
  it("lets `limit` calls through in a minute, then waits for the oldest to age out", async () => {
    let now = 0;
    const waits: number[] = [];
    const limiter = new CallsPerMinute(2, {
      now: () => now,
      sleep: async (ms) => {
        waits.push(ms);
        now += ms;
      },
    });
    expect(await limiter.take()).toBe(0);
    now = 10_000;
    expect(await limiter.take()).toBe(0);
    now = 20_000;
    // Third call: waits until the first (t=0) is a minute old.
    expect(await limiter.take()).toBe(40_000);
    expect(now).toBe(60_000);
    // Fourth: the second (t=10 s) ages out at 70 s.
    expect(await limiter.take()).toBe(10_000);
    expect(waits).toEqual([40_000, 10_000]);
  });
});
