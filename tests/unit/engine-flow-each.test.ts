import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import type { CrewCatalog } from "@/lib/crew/load-crews";
import { queryable } from "@/lib/db/queryable";
import type { Db } from "@/lib/db/types";
import type { FlowProgress } from "@/lib/run-model/flow-progress";
import type { ExecutionRow, TokenUsage } from "@/lib/run-model/types";
import { DB_KINDS, openTestDb } from "../support/both-dbs";
import { engineHarness } from "../support/engine-harness";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai";
import { queryAs } from "../support/rows";

// A flow's tokens are the exact sum of its nested runs' and its own model calls', however many
// items an `each` runs through crews, and when a worker dies mid-flow and another goes on. And
// an `each` takes at most EACH_MAX_ITEMS items: refused at kickoff when the list is the
// caller's input, the flow run failed naming the cap when it is worked out later.

const FAN = `
schema: crewai.flow/v1
name: FanFlow
state:
  type: json_schema
  json_schema:
    type: object
    properties:
      topics: { type: array, items: { type: string } }
    required: [topics]
methods:
  fan:
    start: true
    do:
      call: each
      in: "\${state.topics}"
      do:
        - name: brief
          action:
            call: crew
            with:
              agents:
                writer: { role: Writer, goal: Write briefs, backstory: Brief and clear. }
              tasks:
                - name: brief
                  description: "Write a brief about {topic}"
                  expected_output: A brief.
                  agent: writer
            inputs: { topic: "\${item}" }
        - name: label
          action: { call: expression, expr: "item + ': ' + outputs.brief.raw" }
  close:
    listen: fan
    do:
      call: agent
      with:
        role: Editor
        goal: Sum up
        backstory: Terse.
        input: "Sum up \${string(size(outputs.fan))} briefs"
`;

const DOUBLE = `
schema: crewai.flow/v1
name: DoubleFlow
state:
  type: json_schema
  json_schema:
    type: object
    properties:
      topics: { type: array, items: { type: string } }
    required: [topics]
methods:
  double:
    start: true
    do: { call: expression, expr: "state.topics + state.topics" }
  lines:
    listen: double
    do:
      call: each
      in: "\${outputs.double}"
      do:
        - name: line
          action: { call: expression, expr: "'- ' + item" }
`;

const ASK = `
schema: crewai.flow/v1
name: AskFlow
methods:
  draft:
    start: true
    do:
      call: agent
      with: { role: Writer, goal: Draft, backstory: Brief., input: "Draft a release note" }
  approve:
    listen: draft
    human_feedback:
      message: Ship it?
      emit: [ship, hold]
      default_outcome: hold
      llm: openai/gpt-4o-mini
    do: { call: expression, expr: "outputs.draft.raw" }
  shipped: { listen: ship, do: { call: expression, expr: "'shipped'" } }
  held: { listen: hold, do: { call: expression, expr: "'held'" } }
`;

// Topics of different lengths: each brief's prompt, and so its tokens, differ.
const TOPICS = ["ai", "a much longer topic about durable workflow engines", "release notes"];
const org: Principal = { kind: "org", tokenId: null };
const flowOf = (row: ExecutionRow) => row.flow as FlowProgress;

type Child = { id: string; status: string; token_usage: TokenUsage };
async function childrenOf(db: Db, id: string): Promise<Child[]> {
  return (
    await queryAs<Child>(
      db,
      "SELECT id, status, token_usage FROM executions WHERE parent_id = $1 ORDER BY created_at",
      [id],
    )
  ).rows;
}
const sum = (usages: TokenUsage[]): TokenUsage =>
  usages.reduce(
    (s, u) => ({
      input_tokens: s.input_tokens + u.input_tokens,
      output_tokens: s.output_tokens + u.output_tokens,
      total_tokens: s.total_tokens + u.total_tokens,
    }),
    { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
  );

let openai: FakeOpenAI;
beforeAll(async () => {
  openai = await startFakeOpenAI();
});
afterAll(() => openai?.close());

describe.each(DB_KINDS)("a flow's each on the %s database", (database) => {
  const h = engineHarness(
    { fan: FAN, double: DOUBLE, ask: ASK },
    () => ({ OPENAI_BASE_URL: openai.url, OPENAI_API_KEY: "test-key" }),
    { database },
  );

  it("counts every nested run's tokens: the flow's are their exact sum", async () => {
    const id = await h.kickoff("fan", { topics: JSON.stringify(TOPICS) });
    const done = await h.waitFor(id, (r) => r.status === "completed", 60_000);
    const children = await childrenOf(h.db(), id);
    expect(children.map((c) => c.status)).toEqual(Array(4).fill("completed"));
    // Every brief spent tokens, and not all the same number (before: only the last counted).
    const briefs = children.slice(0, 3).map((c) => c.token_usage.total_tokens);
    expect(Math.min(...briefs)).toBeGreaterThan(0);
    expect(new Set(briefs).size).toBeGreaterThan(1);
    expect(done.token_usage).toEqual(sum(children.map((c) => c.token_usage)));
    expect((flowOf(done).outputs.fan as string[]).map((line) => line.split(":")[0])).toEqual(
      TOPICS,
    );
    expect(flowOf(done).steps[0]?.children).toEqual(children.slice(0, 3).map((c) => c.id));
    // What the items gave was kept beside the row only until the method's output was written.
    const kept = await queryAs(h.db(), "SELECT 1 FROM flow_each_items WHERE execution_id = $1", [
      id,
    ]);
    expect(kept.rows).toHaveLength(0);
  });

  it("counts the flow's own model call, reading a reviewer's feedback, beside its nested runs'", async () => {
    const { resumeExecution } = await import("@/lib/reviews/resume-execution");
    const id = await h.kickoff("ask");
    await h.waitFor(id, (r) => r.status === "pending_human_input", 60_000);
    const asked = openai.requests.length;
    await resumeExecution({
      db: h.db(),
      crew: "ask",
      principal: org,
      request: {
        execution_id: id,
        task_id: "approve",
        human_feedback: "Looks fine to me",
        is_approve: true,
      },
    });
    const done = await h.waitFor(id, (r) => r.status === "completed", 60_000);
    expect(openai.requests.length).toBe(asked + 1); // the feedback read by the method's llm
    const children = await childrenOf(h.db(), id);
    expect(children).toHaveLength(1);
    // The fake model's answer spends 11 + 7 tokens.
    const own = { input_tokens: 11, output_tokens: 7, total_tokens: 18 };
    expect(done.token_usage).toEqual(sum([...children.map((c) => c.token_usage), own]));
  });

  it("refuses at kickoff a list from the inputs longer than the cap (422, naming it)", async () => {
    const before = (await queryAs(h.db(), "SELECT id FROM executions")).rows.length;
    const topics = Array.from({ length: 10_001 }, (_, i) => `t${i}`);
    await expect(h.kickoff("fan", { topics: JSON.stringify(topics) })).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining("method 'fan': each.in gave 10001 items"),
      details: { errors: [{ path: "inputs.topics", message: expect.stringContaining("10000") }] },
    });
    expect((await queryAs(h.db(), "SELECT id FROM executions")).rows.length).toBe(before);
  });

  it("runs a worked-out list up to the cap, and fails the run past it, naming the cap", async () => {
    const topics = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => `t${i}`));
    const full = await h.kickoff("double", { topics: topics(5_000) });
    const done = await h.waitFor(full, (r) => r.status === "completed", 60_000);
    expect(flowOf(done).outputs.lines).toHaveLength(10_000);
    const over = await h.kickoff("double", { topics: topics(5_001) });
    const failed = await h.waitFor(over, (r) => r.status === "error", 60_000);
    expect(failed.error).toBe(
      "method 'lines': each.in gave 10002 items; an each takes at most 10000",
    );
  });
});

// A worker dies just as it has read that the second item's crew has finished, before it wrote
// anything about it; a second worker takes the flow over once the lease has run out.
describe.each(DB_KINDS)("a flow taken over mid-each on the %s database", (database) => {
  let db: Db;
  let close: () => Promise<void>;
  let catalog: CrewCatalog;
  let tmp: string;
  const saved: Record<string, string | undefined> = {};
  const ENV = { OFFLINE_MODEL_DELAY_MS: "0", DEFAULT_LLM: "offline", MODEL_MAX_RETRIES: "0" };

  beforeAll(async () => {
    for (const [k, v] of Object.entries(ENV)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-each-takeover-"));
    fs.mkdirSync(path.join(tmp, "fan"));
    fs.writeFileSync(path.join(tmp, "fan", "flow.yaml"), FAN);
    const { loadCrews } = await import("@/lib/crew/load-crews");
    catalog = loadCrews(tmp);
    ({ db, close } = await openTestDb(database));
  }, 60_000);
  afterAll(async () => {
    await close?.();
    fs.rmSync(tmp, { recursive: true, force: true });
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it("neither drops nor counts twice a nested run's tokens", async () => {
    const { createExecution } = await import("@/lib/runs/create-execution");
    const { startWorker } = await import("@/lib/engine/worker");
    const { nestedRunId } = await import("@/lib/flows/nested-runs");
    const crew = catalog.crews.get("fan");
    if (!crew) throw new Error(`no fan flow: ${JSON.stringify(catalog.errors)}`);
    const id = await createExecution({
      db,
      crew,
      principal: org,
      request: { inputs: { topics: JSON.stringify(TOPICS) } },
    });
    // `fan` is the flow's first method run; its items' crews are named by run/item/step.
    const second = nestedRunId(id, "1/1/brief");
    const lost = () => Object.assign(new Error("Connection terminated"), { code: "ECONNRESET" });
    let dead = false;
    let died!: () => void;
    const death = new Promise<void>((resolve) => {
      died = resolve;
    });
    const dying: Db = {
      ...db,
      ...queryable(async (sql, params) => {
        if (dead) throw lost();
        const res = await db.query(sql, params);
        const read = /^SELECT id, status, result, error, tasks, token_usage FROM executions/;
        if (read.test(sql) && params?.[0] === second && res.rows[0]?.status === "completed") {
          dead = true; // from here on, this worker's process is gone: nothing more it writes
          died();
          throw lost();
        }
        return res;
      }),
      tx: (fn) => (dead ? Promise.reject(lost()) : db.tx(fn)),
      listen: (...args) => db.listen(...args),
    };
    const logged: string[] = [];
    const log = (m: string) => logged.push(m);
    const first = startWorker({ db: dying, concurrency: 2, leaseMs: 60_000, pollMs: 50, log });
    await death;
    await first.stop();
    // Its lease is still on the flow (it died, it did not hand the run back): let it run out.
    await db.query(
      "UPDATE executions SET lease_expires_at = now() - interval '1 second' WHERE lease_owner IS NOT NULL",
    );
    const takeover = startWorker({ db, concurrency: 2, leaseMs: 60_000, pollMs: 50, log });
    try {
      for (let row: ExecutionRow | undefined; row?.status !== "completed"; ) {
        row = (await queryAs<ExecutionRow>(db, "SELECT * FROM executions WHERE id = $1", [id]))
          .rows[0];
        if (row && ["error", "cancelled"].includes(row.status))
          expect.fail(`flow ${row.status}: ${row.error}; ${logged.join(" | ")}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    } finally {
      await takeover.stop();
    }
    const done = (await queryAs<ExecutionRow>(db, "SELECT * FROM executions WHERE id = $1", [id]))
      .rows[0] as ExecutionRow;
    const children = await childrenOf(db, id);
    // One crew per item and the closing agent: none started twice.
    expect(children.map((c) => c.id).slice(0, 3)).toEqual(
      TOPICS.map((_, i) => nestedRunId(id, `1/${i}/brief`)),
    );
    expect(children).toHaveLength(4);
    expect(done.token_usage).toEqual(sum(children.map((c) => c.token_usage)));
    expect((flowOf(done).outputs.fan as string[]).map((line) => line.split(":")[0])).toEqual(
      TOPICS,
    );
  }, 60_000);
});
