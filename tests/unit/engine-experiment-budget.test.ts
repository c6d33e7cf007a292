import { describe, expect, it } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import { ExperimentCreateSchema } from "@/lib/contract/experiments";
import { advanceExperiment } from "@/lib/experiments/advance";
import { claimExperiments } from "@/lib/experiments/claim";
import { createExperiment } from "@/lib/experiments/create-experiment";
import { createDataset } from "@/lib/experiments/datasets";
import type { TaskState } from "@/lib/run-model/types";
import { DB_KINDS } from "../support/both-dbs";
import { engineHarness } from "../support/engine-harness";
import { queryAs } from "../support/rows";

// An experiment's budget bounds what its running cells spend, not only what it starts: once the
// spend recorded reaches it, no model call starts, so it is overshot by at most the calls in
// flight when it was crossed (one per running cell's run), with the real engine and worker.
const PAIR = `
agents:
  writer:
    role: Writer
    goal: "Write about {topic}"
    backstory: Careful.
tasks:
  draft:
    description: "Draft a note on {topic}."
    expected_output: A draft.
    agent: writer
  polish:
    description: "Polish the note on {topic}."
    expected_output: A note.
    agent: writer
`;
const org: Principal = { kind: "org", tokenId: null };

type CellRun = {
  cell: string;
  status: string;
  error: string | null;
  stopped_by: string | null;
  tokens: number;
  tasks: TaskState[];
};

describe.each(DB_KINDS)("an experiment's budget, on the %s database", (database) => {
  const engine = engineHarness({ pair: PAIR }, {}, { database });
  const ACTIVE = `SELECT e.id FROM experiment_cells c JOIN executions e ON e.id = c.execution_id
                 WHERE c.experiment_id = $1 AND e.status IN ('queued', 'running')`;

  /**
   * Advances the experiment a step at a time, each step only once every run it started has ended:
   * the runs go as far as they can between two steps, as they do when steps are slow or far apart,
   * so the bound must come from the runs themselves, not from how often the experiment looks.
   */
  async function advanceUntilEnded(id: string) {
    for (;;) {
      const [exp] = await claimExperiments(engine.db(), "budget-test", 60_000);
      if (exp) await advanceExperiment(engine.db(), exp);
      const { rows: active } = await queryAs<{ id: string }>(engine.db(), ACTIVE, [id]);
      for (const r of active) await ended(r.id);
      const { rows } = await queryAs<{ status: string }>(
        engine.db(),
        "SELECT status FROM experiments WHERE id = $1",
        [id],
      );
      if (rows[0]?.status !== "running") return rows[0];
    }
  }

  async function ended(runId: string) {
    while (!["completed", "error", "cancelled"].includes((await engine.getRow(runId)).status))
      await new Promise((r) => setTimeout(r, 10));
  }

  it("stops running cells once reached: overshot by at most one call per running cell", async () => {
    const parallelism = 4;
    const dataset = await createDataset(
      engine.db(),
      "pair",
      org,
      { name: "topics" },
      ["tides", "ferns", "clocks", "bees"].map((topic) => ({ inputs: { topic }, expected: {} })),
    );
    const id = await createExperiment(
      engine.db(),
      engine.crew("pair"),
      org,
      { crew: "pair", owner: null },
      ExperimentCreateSchema.parse({
        name: "one token",
        dataset: dataset.id,
        variants: ["current"],
        repeats: 2,
        parallelism,
        budget: { max_tokens: 1 },
      }),
    );
    const experiment = await advanceUntilEnded(id);
    expect(experiment?.status).toBe("budget_reached");

    const { rows: runs } = await queryAs<CellRun>(
      engine.db(),
      `SELECT c.status AS cell, e.status, e.error, e.stopped_by, (e.token_usage->>'total_tokens')::float AS tokens, e.tasks
         FROM experiment_cells c JOIN executions e ON e.id = c.execution_id
        WHERE c.experiment_id = $1`,
      [id],
    );
    // The offline model answers each task in one call: a task that spent tokens is one call.
    const calls = runs.map((r) => r.tasks.filter((t) => (t.token_usage?.total_tokens ?? 0) > 0));
    for (const c of calls) expect(c.length).toBeLessThanOrEqual(1);
    const made = calls.flat();
    expect(made.length).toBeGreaterThanOrEqual(1);
    expect(made.length).toBeLessThanOrEqual(parallelism);
    const spent = runs.reduce((a, r) => a + Number(r.tokens ?? 0), 0);
    const biggest = Math.max(...made.map((t) => t.token_usage?.total_tokens ?? 0));
    expect(spent).toBeLessThanOrEqual(1 + made.length * biggest);

    // A run stopped for the budget says so, and its cell is skipped, not scored as a failure.
    const stopped = runs.filter((r) => r.status !== "completed");
    expect(stopped.length).toBeGreaterThan(0);
    for (const r of stopped) {
      expect(r.status).toBe("cancelled");
      expect(r.error).toMatch(/^Budget reached/);
      expect(r.cell).toBe("skipped");
    }
    // The spend the budget recorded is what the runs used.
    const { rows: budget } = await queryAs<{ tokens: number }>(
      engine.db(),
      "SELECT tokens FROM spend_budgets WHERE id = $1",
      [id],
    );
    expect(Number(budget[0]?.tokens)).toBe(spent);
  });
});
