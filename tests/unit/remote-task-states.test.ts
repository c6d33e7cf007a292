import { describe, expect, it } from "vitest";
import type { RemoteTask } from "@/lib/deployments/remote-status";
import { mergeTasks, type TaskEvent, tasksFromSnapshot } from "@/lib/deployments/task-states";

// The tasks of a mirrored run: the log's events, whatever order they came in and however often,
// over a /status snapshot that may be older than the log.

const ev = (seq: number, type: string, task_id: string, attempt = 1, data = {}): TaskEvent => ({
  seq,
  type,
  task_id,
  attempt,
  data,
  created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)),
});
const log: TaskEvent[] = [
  ev(2, "task_started", "one", 1, { agent: "worker", name: "One" }),
  ev(3, "task_completed", "one", 1, { output: "out one" }),
  ev(4, "task_started", "two"),
  ev(5, "task_completed", "two", 1, { output: "out two" }),
  ev(6, "task_started", "three"),
  ev(7, "task_completed", "three", 1, { output: "out three" }),
];
const snap = (statuses: string[]): RemoteTask[] =>
  ["one", "two", "three"].map((task_id, i) => ({
    task_id,
    name: task_id,
    status: statuses[i] ?? "pending",
    output: statuses[i] === "completed" ? `out ${task_id}` : null,
    attempts: statuses[i] === "pending" ? 0 : 1,
  }));
const stale = () => tasksFromSnapshot(snap(["completed", "running", "pending"]), false, []);
const summary = (tasks: { task_id: string; status: string; attempts: number }[]) =>
  tasks.map((t) => `${t.task_id}:${t.status}:${t.attempts}`);

describe("mergeTasks", () => {
  it("a stale snapshot does not take back what the log says was done", () => {
    const tasks = mergeTasks(stale(), log);
    expect(summary(tasks)).toEqual(["one:completed:1", "two:completed:1", "three:completed:1"]);
    expect(tasks.map((t) => t.output)).toEqual(["out one", "out two", "out three"]);
    expect(tasks[1]?.finished_at).toBe("2026-01-01T00:00:05.000Z");
  });

  it("events out of order or twice give the same tasks", () => {
    const inOrder = mergeTasks(stale(), log);
    const shuffled = [
      log[5],
      log[3],
      log[0],
      log[4],
      log[1],
      log[2],
      log[3],
      log[5],
    ] as TaskEvent[];
    expect(mergeTasks(stale(), shuffled)).toEqual(inOrder);
  });

  it("a snapshot newer than the log moves a task on; the log catches up later", () => {
    const newer = tasksFromSnapshot(snap(["completed", "completed", "running"]), false, []);
    const partial = mergeTasks(newer, log.slice(0, 3));
    expect(summary(partial)).toEqual(["one:completed:1", "two:completed:1", "three:running:1"]);
  });

  it("tasks known only from the log are listed in the log's order", () => {
    expect(summary(mergeTasks([], [log[4], log[2], log[0]] as TaskEvent[]))).toEqual([
      "one:running:1",
      "two:running:1",
      "three:running:1",
    ]);
  });

  it("a rejected review waits for its retry; the retry's events win over the first attempt's", () => {
    const review = [
      ev(2, "task_started", "one"),
      ev(3, "review_requested", "one", 1, { output: "draft 1" }),
      ev(4, "review_submitted", "one", 1, { decision: "reject" }),
    ];
    expect(summary(mergeTasks([], review))).toEqual(["one:pending:1"]);
    const retried = [...review, ev(5, "task_started", "one", 2)];
    expect(summary(mergeTasks([], retried))).toEqual(["one:running:2"]);
    // A CrewAI snapshot does not count attempts: "running" after a rejection is the retry.
    const crewai = tasksFromSnapshot(
      [{ task_id: "one", name: null, status: "running", output: null, attempts: null }],
      false,
      [],
    );
    expect(summary(mergeTasks(crewai, review))).toEqual(["one:running:2"]);
    const approved = [...retried, ev(6, "review_requested", "one", 2, { output: "draft 2" })];
    const done = mergeTasks([], [...approved, ev(7, "review_submitted", "one", 2, {})]);
    expect(summary(done)).toEqual(["one:completed:2"]);
    expect(done[0]?.output).toBe("draft 2");
  });

  it("a completed CrewAI run's tasks with output are done, whatever word it used", () => {
    const tasks = tasksFromSnapshot(
      [{ task_id: "t", name: "T", status: "SUCCESS", output: "x", attempts: null }],
      true,
      [],
    );
    expect(summary(mergeTasks(tasks, []))).toEqual(["t:completed:0"]);
  });
});
