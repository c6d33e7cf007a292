import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import type { CrewDef } from "@/lib/crew/schema";
import type { Db } from "@/lib/db/types";
import { AppError } from "@/lib/errors";
import type { ExecutionRow } from "@/lib/run-model/types";
import { queryAs } from "../support/rows";

// lib/config/env.ts reads process.env once: set it before anything calls env().
const ENV = { OFFLINE_MODEL_DELAY_MS: "0", DEFAULT_LLM: "offline", MODEL_MAX_RETRIES: "0" };
const savedEnv: Record<string, string | undefined> = {};

const CREWS: Record<string, string> = {
  // three tasks, one agent with a tool: a plain run
  pipeline: `
name: Pipeline
agents:
  writer:
    role: "Writer on {topic}"
    goal: "Write about {topic} for {audience}"
    backstory: "Careful."
    llm: offline
    tools: [word_count]
tasks:
  research:
    name: Research
    description: "Research {topic} for {audience}."
    expected_output: "Findings."
    agent: writer
  outline:
    name: Outline
    description: "Outline a brief on {topic}."
    expected_output: "An outline."
    agent: writer
  write:
    name: Write
    description: "Write the brief on {topic}."
    expected_output: "The brief."
    agent: writer
`,
  // the last task waits for a reviewer
  reviewed: `
agents:
  writer:
    role: Editor
    goal: "Edit {topic}"
    backstory: "Strict."
    llm: offline
    tools: [word_count]
tasks:
  draft:
    description: "Draft a note on {topic}."
    expected_output: "A draft."
    agent: writer
  final:
    description: "Polish the note on {topic}."
    expected_output: "The final note."
    agent: writer
    human_input: true
`,
  // many short tasks: a run long enough to be stopped midway
  long: `
agents:
  writer:
    role: Writer
    goal: "Write on {topic}"
    backstory: "Slow."
    llm: offline
    tools: [word_count, current_date]
tasks:
${[1, 2, 3, 4, 5, 6, 7, 8]
  .map(
    (n) =>
      `  step${n}:\n    description: "Step ${n} on {topic}."\n    expected_output: "Notes."\n    agent: writer\n`,
  )
  .join("")}`,
  // the first task waits for a reviewer; approval lets the second one run
  gated: `
agents:
  planner:
    role: Planner
    goal: Plan
    backstory: "Plans."
    llm: offline
tasks:
  plan:
    description: "Plan the work on {topic}."
    expected_output: "A plan."
    agent: planner
    human_input: true
  execute:
    description: "Carry out the plan on {topic}."
    expected_output: "A report."
    agent: planner
`,
};

const org: Principal = { kind: "org", tokenId: null };
const INPUTS = { topic: "tidal power", audience: "engineers" };

let tmp: string;
let db: Db;
let crews: Map<string, CrewDef>;
let worker: { stop(): Promise<void>; activeCount(): number };
const workerLog: string[] = [];
let createExecution: typeof import("@/lib/runs/create-execution").createExecution;
let resumeExecution: typeof import("@/lib/reviews/resume-execution").resumeExecution;
let stopExecution: typeof import("@/lib/runs/stop-execution").stopExecution;
let OFFLINE_LABEL: string;

beforeAll(async () => {
  for (const [k, v] of Object.entries(ENV)) {
    savedEnv[k] = process.env[k];
    process.env[k] = v;
  }
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-engine-"));
  const crewsDir = path.join(tmp, "crews");
  for (const [slug, yaml] of Object.entries(CREWS)) {
    fs.mkdirSync(path.join(crewsDir, slug), { recursive: true });
    fs.writeFileSync(path.join(crewsDir, slug, "crew.yaml"), yaml);
  }

  const { loadCrews } = await import("@/lib/crew/load-crews");
  const catalog = loadCrews(crewsDir);
  expect(catalog.errors).toEqual([]);
  crews = catalog.crews;

  const { openEmbedded } = await import("@/lib/db/open");
  const { migrate } = await import("@/lib/db/migrations");
  db = await openEmbedded(path.join(tmp, "data"));
  await migrate(db);
  await migrate(db); // a second run finds nothing to do

  ({ createExecution } = await import("@/lib/runs/create-execution"));
  ({ resumeExecution } = await import("@/lib/reviews/resume-execution"));
  ({ stopExecution } = await import("@/lib/runs/stop-execution"));
  ({ OFFLINE_LABEL } = await import("@/lib/llm/offline-model"));
  const { startWorker } = await import("@/lib/engine/worker");
  worker = startWorker({
    db,
    concurrency: 2,
    leaseMs: 2000,
    pollMs: 50,
    log: (m) => workerLog.push(m),
  });
}, 60_000);

afterAll(async () => {
  await worker?.stop();
  await db?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  for (const [k, v] of Object.entries(savedEnv)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

function crew(slug: string): CrewDef {
  const c = crews.get(slug);
  if (!c) throw new Error(`no crew ${slug}`);
  return c;
}

function kickoff(slug: string, inputs: Record<string, string | number | boolean> = INPUTS) {
  return createExecution({ db, crew: crew(slug), principal: org, request: { inputs } });
}

async function getRow(id: string): Promise<ExecutionRow> {
  const { rows } = await queryAs<ExecutionRow>(db, "SELECT * FROM executions WHERE id = $1", [id]);
  const row = rows[0];
  if (!row) throw new Error(`no execution ${id}`);
  return row;
}

type EventRow = {
  seq: number;
  type: string;
  task_id: string | null;
  attempt: number | null;
  data: Record<string, unknown>;
};
async function events(id: string): Promise<EventRow[]> {
  const { rows } = await queryAs<EventRow>(
    db,
    "SELECT seq, type, task_id, attempt, data FROM execution_events WHERE execution_id = $1 ORDER BY seq",
    [id],
  );
  return rows;
}

async function waitFor(
  id: string,
  done: (row: ExecutionRow) => boolean,
  what: string,
  timeoutMs = 20_000,
): Promise<ExecutionRow> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await getRow(id);
    if (done(row)) return row;
    if (["completed", "error", "cancelled"].includes(row.status) || Date.now() > deadline) {
      throw new Error(
        `execution ${id} never became ${what}: it is ${row.status} (${row.error ?? ""}); worker log: ${workerLog.join(" | ")}`,
      );
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}
const settled = (status: ExecutionRow["status"]) => (row: ExecutionRow) => row.status === status;
const pausedAt = (attempt: number) => (row: ExecutionRow) =>
  row.status === "pending_human_input" &&
  (row.pending_human_input as { attempt?: number } | null)?.attempt === attempt;

function expectGaplessSeq(list: EventRow[], lastSeq: number) {
  expect(list.map((e) => e.seq)).toEqual(Array.from({ length: list.length }, (_, i) => i + 1));
  expect(lastSeq).toBe(list.length);
}

async function rejection(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe("engine: a plain run", () => {
  let id: string;
  let row: ExecutionRow;

  beforeAll(async () => {
    id = await kickoff("pipeline", { ...INPUTS, unused: "ignored" });
    row = await waitFor(id, settled("completed"), "completed");
  });

  it("completes every task once, in order, with the last output as result", async () => {
    expect(row.status).toBe("completed");
    expect(row.error).toBeNull();
    expect(row.tasks.map((t) => t.task_id)).toEqual(["research", "outline", "write"]);
    for (const t of row.tasks) {
      expect(t.status).toBe("completed");
      expect(t.attempts).toBe(1);
      expect(t.output).toBeTruthy();
      expect(t.started_at).toBeTruthy();
      expect(t.finished_at).toBeTruthy();
    }
    expect(row.result).toBe(row.tasks[2]?.output);
    expect(row.result).toContain("Write the brief on tidal power.");
    expect(row.result).toContain(OFFLINE_LABEL);
    expect(row.current_task).toBeNull();
    expect(row.pending_human_input).toBeNull();
    expect(row.lease_owner).toBeNull();
    expect(row.started_at).toBeTruthy();
    expect(row.finished_at).toBeTruthy();
    expect(row.token_usage.total_tokens).toBe(
      row.token_usage.input_tokens + row.token_usage.output_tokens,
    );
    expect(row.token_usage.total_tokens).toBeGreaterThan(0);
  });

  it("stores only the inputs the crew uses, and fills them into the prompts", async () => {
    expect(row.inputs).toEqual(INPUTS);
    expect(row.tasks[0]?.output).toContain("Research tidal power for engineers.");
    expect(row.tasks[0]?.output).toContain("Writer on tidal power");
  });

  it("gives later tasks the earlier outputs as context", () => {
    expect(row.tasks[0]?.output).not.toContain("**Builds on**");
    expect(row.tasks[2]?.output).toContain("**Builds on**");
    expect(row.tasks[2]?.output).toContain("- Research (research)");
    expect(row.tasks[2]?.output).toContain("- Outline (outline)");
  });

  it("logs gapless events covering the whole run", async () => {
    const list = await events(id);
    expectGaplessSeq(list, row.last_seq);
    const types = new Set(list.map((e) => e.type));
    for (const type of [
      "execution_queued",
      "execution_started",
      "task_started",
      "thought",
      "tool_call",
      "tool_result",
      "answer",
      "task_completed",
      "execution_completed",
    ]) {
      expect(types, type).toContain(type);
    }
    expect(list[0]?.type).toBe("execution_queued");
    expect(list[1]?.type).toBe("execution_started");
    expect(list.at(-1)?.type).toBe("execution_completed");
    expect(list.at(-1)?.data.result).toBe(row.result);
    expect(list.filter((e) => e.type === "task_started").map((e) => e.task_id)).toEqual([
      "research",
      "outline",
      "write",
    ]);
    expect(list.filter((e) => e.type === "task_completed").map((e) => e.task_id)).toEqual([
      "research",
      "outline",
      "write",
    ]);
    // each task: started, its agent steps (a word_count call and its result), completed
    for (const taskId of ["research", "outline", "write"]) {
      const own = list.filter((e) => e.task_id === taskId).map((e) => e.type);
      expect(own[0]).toBe("task_started");
      expect(own.at(-1)).toBe("task_completed");
      expect(own.indexOf("tool_call")).toBeLessThan(own.indexOf("tool_result"));
      expect(own.indexOf("tool_result")).toBeLessThan(own.indexOf("answer"));
      const call = list.find((e) => e.task_id === taskId && e.type === "tool_call");
      expect(call?.data).toMatchObject({ tool: "word_count", agent: "writer", model: "offline" });
      expect(call?.attempt).toBe(1);
    }
    const answer = list.filter((e) => e.type === "answer").at(-1);
    expect(answer?.data.text).toBeTruthy();
  });

  it("refuses to resume an execution that is not paused (400, as CrewAI's API)", async () => {
    const err = await rejection(
      resumeExecution({
        db,
        crew: "pipeline",
        principal: org,
        request: { execution_id: id, task_id: "write", human_feedback: "ok", is_approve: true },
      }),
    );
    expect(err.status).toBe(400);
    expect((await getRow(id)).status).toBe("completed");
  });

  it("refuses to stop a finished execution (409)", async () => {
    const err = await rejection(stopExecution({ db, crew: "pipeline", id, principal: org }));
    expect(err.status).toBe(409);
    expect((await getRow(id)).status).toBe("completed");
  });

  it("hides the execution from another crew's routes (404)", async () => {
    const err = await rejection(stopExecution({ db, crew: "reviewed", id, principal: org }));
    expect(err.status).toBe(404);
  });
});

describe("engine: kickoff validation", () => {
  it("rejects missing inputs with 422 and queues nothing", async () => {
    const before = await db.query("SELECT id FROM executions");
    const err = await rejection(kickoff("pipeline", { topic: "x", audience: "" }));
    expect(err.status).toBe(422);
    expect(err.details).toEqual({ missing_inputs: ["audience"] });
    const after = await db.query("SELECT id FROM executions");
    expect(after.rows.length).toBe(before.rows.length);
  });
});

describe("engine: human review", () => {
  it("pauses, retries on rejection, replays a repeat, completes on approval", async () => {
    const id = await kickoff("reviewed");
    const resume = (task_id: string, is_approve: boolean, human_feedback: string) =>
      resumeExecution({
        db,
        crew: "reviewed",
        principal: org,
        request: { execution_id: id, task_id, human_feedback, is_approve },
      });

    // 1. paused on the last task, attempt 1
    let row = await waitFor(id, pausedAt(1), "paused on attempt 1");
    const first = row.tasks[1]?.output;
    expect(first).toBeTruthy();
    expect(row.pending_human_input).toMatchObject({ task_id: "final", output: first, attempt: 1 });
    expect(row.tasks.map((t) => [t.status, t.attempts])).toEqual([
      ["completed", 1],
      ["pending_human_input", 1],
    ]);
    expect(row.lease_owner).toBeNull();
    expect(row.result).toBeNull();
    expect((await events(id)).at(-1)).toMatchObject({
      type: "review_requested",
      task_id: "final",
      attempt: 1,
    });

    // a decision on a task not awaiting review is refused
    const wrong = await rejection(resume("draft", true, "fine"));
    expect(wrong.status).toBe(400);

    // 2. rejection: the task runs again with the feedback and pauses again
    const feedback = "Make it punchier, and mention costs.";
    await expect(resume("final", false, feedback)).resolves.toMatchObject({ status: "retrying" });
    row = await waitFor(id, pausedAt(2), "paused on attempt 2");
    const second = row.tasks[1]?.output;
    expect(row.pending_human_input).toMatchObject({ task_id: "final", output: second, attempt: 2 });
    expect(row.tasks.map((t) => [t.status, t.attempts])).toEqual([
      ["completed", 1], // the approved-by-default earlier task is not run again
      ["pending_human_input", 2],
    ]);
    expect(second).not.toBe(first);
    expect(second).toContain(feedback);
    expect(row.tasks[1]?.reviews).toMatchObject([
      { attempt: 1, is_approve: false, feedback, output: first },
    ]);

    // 3. the same rejection again is a replay: answered, not applied
    const seqBefore = row.last_seq;
    const replay = await resume("final", false, feedback);
    expect(replay.status).toBe("retrying");
    expect(replay.message).toMatch(/already applied/i);
    await new Promise((r) => setTimeout(r, 300));
    row = await getRow(id);
    expect(row.status).toBe("pending_human_input");
    expect(row.tasks[1]?.attempts).toBe(2);
    expect(row.tasks[1]?.reviews).toHaveLength(1);
    expect(row.last_seq).toBe(seqBefore);

    // 4. approval of the last task completes the execution with that output
    await expect(resume("final", true, "Good now.")).resolves.toMatchObject({
      status: "completed",
    });
    row = await getRow(id);
    expect(row.status).toBe("completed");
    expect(row.result).toBe(second);
    expect(row.pending_human_input).toBeNull();
    expect(row.finished_at).toBeTruthy();
    expect(row.tasks.map((t) => [t.status, t.attempts])).toEqual([
      ["completed", 1],
      ["completed", 2],
    ]);
    const list = await events(id);
    expectGaplessSeq(list, row.last_seq);
    expect(list.at(-1)).toMatchObject({ type: "execution_completed", data: { result: second } });
    expect(list.filter((e) => e.type === "review_submitted").map((e) => e.data.decision)).toEqual([
      "reject",
      "approve",
    ]);
    expect(
      list.filter((e) => e.type === "task_started" && e.task_id === "final").map((e) => e.attempt),
    ).toEqual([1, 2]);

    // 5. the approval again is a replay too, not a 409
    const again = await resume("final", true, "Good now.");
    expect(again.status).toBe("completed");
    expect(again.message).toMatch(/already applied/i);
    expect((await getRow(id)).last_seq).toBe(row.last_seq);

    // 6. a different decision on a finished execution is a conflict
    const late = await rejection(resume("final", false, "Actually, no."));
    expect(late.status).toBe(409);
  });

  it("approval of an earlier task resumes the run, with the feedback as context", async () => {
    const id = await kickoff("gated", { topic: "solar" });
    await waitFor(id, pausedAt(1), "paused");
    const res = await resumeExecution({
      db,
      crew: "gated",
      principal: org,
      request: {
        execution_id: id,
        task_id: "plan",
        human_feedback: "Budget is 10k.",
        is_approve: true,
      },
    });
    expect(res.status).toBe("resumed");
    const row = await waitFor(id, settled("completed"), "completed");
    expect(row.tasks.map((t) => [t.status, t.attempts])).toEqual([
      ["completed", 1],
      ["completed", 1],
    ]);
    expect(row.result).toBe(row.tasks[1]?.output);
    expect(row.result).toContain("Carry out the plan on solar.");
    expect(row.result).toContain("Budget is 10k.");
    expectGaplessSeq(await events(id), row.last_seq);
  });
});

describe("engine: stop", () => {
  it("cancels a queued or running execution; a second stop is a conflict", async () => {
    const id = await kickoff("long");
    await stopExecution({ db, crew: "long", id, principal: org });
    let row = await getRow(id);
    expect(row.status).toBe("cancelled");
    expect(row.error).toBe("Stopped on request.");
    expect(row.lease_owner).toBeNull();
    expect(row.finished_at).toBeTruthy();

    const err = await rejection(stopExecution({ db, crew: "long", id, principal: org }));
    expect(err.status).toBe(409);

    // the worker lets go: nothing more is written, the run never completes
    await new Promise((r) => setTimeout(r, 400));
    row = await getRow(id);
    expect(row.status).toBe("cancelled");
    expect(row.result).toBeNull();
    expect(row.tasks.some((t) => t.status === "running")).toBe(false);
    const list = await events(id);
    expectGaplessSeq(list, row.last_seq);
    expect(list.at(-1)?.type).toBe("execution_cancelled");
    expect(["queued", "running"]).toContain(list.at(-1)?.data.previous_status);
    expect(row.tasks.filter((t) => t.status === "completed").length).toBeLessThan(8);
    expect(list.map((e) => e.type)).not.toContain("execution_completed");
  });

  it("cancels a paused execution", async () => {
    const id = await kickoff("reviewed");
    await waitFor(id, pausedAt(1), "paused");
    await stopExecution({ db, crew: "reviewed", id, principal: org });
    const row = await getRow(id);
    expect(row.status).toBe("cancelled");
    expect(row.pending_human_input).toBeNull();
    expect(row.tasks[1]?.status).toBe("error");
    const err = await rejection(
      resumeExecution({
        db,
        crew: "reviewed",
        principal: org,
        request: { execution_id: id, task_id: "final", human_feedback: "ok", is_approve: true },
      }),
    );
    expect(err.status).toBe(400);
  });

  it("leaves nothing running and logs no worker errors", async () => {
    const deadline = Date.now() + 5_000;
    while (worker.activeCount() > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(worker.activeCount()).toBe(0);
    expect(workerLog.filter((l) => /cannot claim|renewal failed|LISTEN failed/.test(l))).toEqual(
      [],
    );
  });
});
