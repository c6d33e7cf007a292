import { describe, expect, it } from "vitest";
import type { CrewDef, TaskDef } from "@/lib/crew/schema";
import type { TaskState } from "@/lib/run-model/types";
import { initialTasks } from "@/lib/runs/create-execution";
import { flowInheritedEvents, pathBefore, recordsOf, replayPath } from "@/lib/runs/fork-flow";
import {
  assertLocalOrigin,
  editedMark,
  forkedTasks,
  forkPoint,
  inheritedEvents,
  inheritedStates,
} from "@/lib/runs/fork-tasks";
import { flowPlan, flowMethod as method } from "../support/flow-plans";

// A fork's decisions on the crew and the origin alone, no database: where it may start, what
// it inherits, the tasks and events it starts with, and a flow's path replayed.

const task = (id: string, t: Partial<TaskDef> = {}): TaskDef => ({
  id,
  name: id.toUpperCase(),
  agent: "a",
  description: "",
  expected_output: "",
  human_input: false,
  ...t,
});
const crewOf = (tasks: TaskDef[]): CrewDef => ({
  slug: "c",
  name: "C",
  description: null,
  agents: [],
  tasks,
  inputs: [],
  source: [],
});
const state = (task_id: string, s: Partial<TaskState> = {}): TaskState => ({
  task_id,
  name: task_id,
  agent: "a",
  human_input: false,
  status: "completed",
  attempts: 2,
  output: `out ${task_id}`,
  started_at: "t0",
  finished_at: "t1",
  execution_time: 5,
  ...s,
});
/** The 422's field error, or null when `f` does not throw. */
function refusal(f: () => unknown) {
  try {
    f();
    return null;
  } catch (err) {
    return (err as { details?: { errors?: { path: string; message: string }[] } }).details
      ?.errors?.[0];
  }
}

describe("where a crew's fork may start", () => {
  const crew = crewOf([
    task("a"),
    task("b", { async_execution: true }),
    task("c", { async_execution: true }),
    task("d"),
  ]);
  it("at a task after the first, by its position", () => {
    expect(forkPoint(crew, "b")).toBe(1);
    expect(forkPoint(crew, "d")).toBe(3);
  });
  it("never at an unknown task, the first task, or inside a group of async tasks", () => {
    expect(refusal(() => forkPoint(crew, "x"))).toEqual({
      path: "from_task",
      message: "no task 'x'",
    });
    expect(refusal(() => forkPoint(crew, "a"))?.message).toBe("the first task");
    expect(refusal(() => forkPoint(crew, "c"))?.message).toBe("inside a group of async tasks");
  });
  it("never from a remote deployment's run", () => {
    expect(refusal(() => assertLocalOrigin({ deployment_id: "d1" }))?.message).toBe(
      "a remote deployment's run",
    );
    expect(refusal(() => assertLocalOrigin({ deployment_id: null }))).toBeNull();
  });
});

describe("what a crew's fork inherits", () => {
  const before = [task("a"), task("b")];
  it("each task before the fork point, completed with an output", () => {
    const got = inheritedStates(before, [state("a"), state("b"), state("c")], "c", undefined);
    expect([...got.keys()]).toEqual(["a", "b"]);
  });
  it("refuses a task that did not complete, or completed without an output", () => {
    for (const b of [state("b", { status: "error" }), state("b", { output: null }), undefined])
      expect(
        refusal(() => inheritedStates(before, [state("a"), ...(b ? [b] : [])], "c", undefined)),
      ).toEqual({ path: "from_task", message: "'b' did not complete in that run" });
  });
  it("lets an edit name only an inherited task", () => {
    const origin = [state("a"), state("b")];
    expect(
      refusal(() => inheritedStates(before, origin, "c", { task_id: "c", output: "x" })),
    ).toEqual({ path: "edit.task_id", message: "not a task before 'c'" });
    expect(
      refusal(() => inheritedStates(before, origin, "c", { task_id: "a", output: "x" })),
    ).toBeNull();
  });
});

describe("a crew fork's first tasks and events", () => {
  const crew = crewOf([task("a"), task("b"), task("c")]);
  const before = crew.tasks.slice(0, 2);
  const inherited = inheritedStates(
    before,
    [state("a", { reviews: [] }), state("b", { attempts: 0 }), state("c")],
    "c",
    undefined,
  );
  const edit = { task_id: "b", output: "edited" };
  it("inherits completed tasks at no cost, the edited one with its new output", () => {
    const tasks = forkedTasks(initialTasks(crew), inherited, edit, "now");
    expect(tasks.map((t) => [t.status, t.output, t.execution_time])).toEqual([
      ["completed", "out a", 0],
      ["completed", "edited", 0],
      ["pending", null, null],
    ]);
    expect(tasks[0]).toMatchObject({
      attempts: 2,
      reviews: [],
      started_at: "now",
      finished_at: "now",
    });
  });
  it("says so once per inherited task, naming the origin and any edit", () => {
    const events = inheritedEvents(before, inherited, { id: "o", by: "ann" }, edit);
    expect(events).toEqual([
      {
        type: "task_inherited",
        task_id: "a",
        attempt: 2,
        data: { from: "o", by: "ann", name: "A", output: "out a" },
      },
      {
        type: "task_inherited",
        task_id: "b",
        attempt: 1, // never tried counts as one attempt
        data: {
          from: "o",
          by: "ann",
          name: "B",
          output: "out b",
          edited: true,
          edited_output: "edited",
        },
      },
    ]);
  });
  it("marks only the edited task", () => {
    expect(editedMark(edit, "a")).toEqual({});
    expect(editedMark(undefined, "b")).toEqual({});
    expect(editedMark(edit, "b")).toEqual({ edited: true, edited_output: "edited" });
  });
});

const plan = flowPlan([
  method("a", { start: true }),
  method("b", { listen: "a" }),
  method("c", { listen: "b" }),
]);
const step = (m: string, run: number) => ({
  method: m,
  run,
  trigger: null,
  children: [],
  started_at: "t0",
  finished_at: "t1",
});

describe("where a flow's fork starts", () => {
  const steps = [step("a", 1), step("b", 2), step("c", 3)];
  it("before the first run of the method, or before the method running now", () => {
    expect(pathBefore(plan, { steps, current: null }, "c", undefined).map((s) => s.method)).toEqual(
      ["a", "b"],
    );
    const running = {
      steps: steps.slice(0, 2),
      current: { method: "c", run: 3, trigger: "b", started_at: "t2" },
    };
    expect(pathBefore(plan, running, "c", undefined)).toHaveLength(2);
  });
  it("refuses an unknown method, one that did not run, the first, and an edit after it", () => {
    const at = (m: string, edit?: { task_id: string; output: string }) =>
      refusal(() => pathBefore(plan, { steps: steps.slice(0, 2), current: null }, m, edit));
    expect(at("x")?.message).toBe("no method 'x'");
    expect(at("c")?.message).toBe("'c' did not run");
    expect(at("a")?.message).toBe("the first method");
    expect(at("b", { task_id: "b", output: "" })).toEqual({
      path: "edit.task_id",
      message: "not a method before 'b'",
    });
  });
});

describe("a flow's path replayed", () => {
  const rows = [
    { type: "task_completed", task_id: "a", data: { output: "A1" }, seq: 2 },
    { type: "flow_method_finished", task_id: "a", data: { flow_run: 1, state: { n: 1 } }, seq: 3 },
    { type: "task_completed", task_id: "b", data: {}, seq: 4 },
    { type: "flow_method_finished", task_id: "b", data: { flow_run: 2, state: null }, seq: 5 },
  ];
  it("reads the state each run left and each method's output texts", () => {
    const { stateAfter, texts } = recordsOf(rows);
    expect([...stateAfter]).toEqual([
      [1, { n: 1 }],
      [2, undefined],
    ]);
    expect([...texts]).toEqual([
      ["a", ["A1"]],
      ["b", [""]],
    ]);
  });
  it("goes the origin's way, keeping its state and outputs, up to the fork point", () => {
    const steps = [step("a", 1), step("b", 2)];
    const { flow, inherited } = replayPath(
      plan,
      { steps, outputs: { a: { v: 1 }, b: "B" } },
      steps,
      recordsOf(rows),
      { task_id: "b", output: "edited" },
      new Date(),
    );
    expect(flow.queue[0]?.method).toBe("c");
    expect(flow.state).toEqual({ n: 1 });
    expect(inherited).toEqual([
      { method: "a", output: { v: 1 }, text: "A1", attempts: 1 },
      { method: "b", output: "edited", text: "edited", attempts: 1 },
    ]);
    expect(flowInheritedEvents(inherited, { id: "o", by: "ann" }, undefined)[0]).toEqual({
      type: "task_inherited",
      task_id: "a",
      attempt: 1,
      data: { from: "o", by: "ann", name: "a", output: "A1" },
    });
  });
  it("refuses a path the flow as it is now would not take", () => {
    const changed = {
      ...plan,
      methods: [method("a", { start: true }), method("b", { listen: "z" })],
    };
    const steps = [step("a", 1), step("b", 2)];
    expect(
      refusal(() =>
        replayPath(changed, { steps, outputs: {} }, steps, recordsOf([]), undefined, new Date()),
      )?.message,
    ).toBe("its path cannot be replayed");
  });
});
