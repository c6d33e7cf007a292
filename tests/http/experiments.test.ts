import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { call, crewClient, expectProblem, type Json, until } from "../support/api";
import { startFakeOpenAI } from "../support/fake-openai";
import { dbMode, type Proc, TEST_CREW_TOKEN, tempDir } from "../support/harness";
import { startTopology } from "../support/topology";

// Experiments end to end: the crew runs on the offline model; the judge is a loopback server
// speaking OpenAI's wire format whose scores this test scripts. PostgreSQL: a web server and a
// worker process (killed and started again mid-experiment); embedded: one process, restarted.
const mode = dbMode();
const procs: Proc[] = [];

// The judge: a rubric verdict's score comes from `rubric(prompt)`, a pairwise one picks the
// longer answer. Both answer in JSON, as the judge's prompt asks.
const judgedOutputs = new Map<string, number>();
let rubric: (prompt: string) => number = () => 5;
const openai = await startFakeOpenAI({
  scripted: ({ messages }) => {
    const prompt = String(messages.at(-1)?.content ?? "");
    if (prompt.startsWith("Two answers")) {
      const one = prompt.split("Answer 1:\n")[1]?.split("\n\nAnswer 2:\n")[0] ?? "";
      const two = prompt.split("\n\nAnswer 2:\n")[1] ?? "";
      const winner = one.length === two.length ? "tie" : one.length > two.length ? "1" : "2";
      return answer({ winner, reasoning: `answer ${winner} says more` });
    }
    const score = rubric(prompt);
    return answer({ score, reasoning: `scored ${score} by the script` });
  },
});
const answer = (json: unknown) => ({
  message: { content: `Here is my verdict: ${JSON.stringify(json)}` },
  finish: "stop",
});
afterAll(async () => {
  await Promise.all(procs.map((p) => p.kill("SIGKILL")));
  await openai.close();
});

const t = await startTopology(mode, procs, {
  OPENAI_BASE_URL: openai.url,
  OPENAI_API_KEY: "test-key",
  OFFLINE_MODEL_DELAY_MS: "0",
  EXPERIMENT_POLL_MS: "100",
  EXPERIMENT_LEASE_MS: "2000",
});
const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  call(t.url(), method, path, { token: TEST_CREW_TOKEN, body, headers });
const base = (crew: string) => `/api/crews/${crew}`;
const ended = (x: Json) => x.status !== "running";

async function dataset(crew: string, name: string, rows: unknown[] = []) {
  const r = await api("POST", `${base(crew)}/datasets`, { name, ...(rows.length ? { rows } : {}) });
  expect(r.status, r.text).toBe(201);
  return r.json as Json;
}
async function experiment(crew: string, body: Record<string, unknown>) {
  const r = await api("POST", `${base(crew)}/experiments`, body);
  expect(r.status, r.text).toBe(202);
  return r.json as Json;
}
const experimentNow = async (crew: string, id: string) =>
  (await api("GET", `${base(crew)}/experiments/${id}`)).json as Json;
const finished = (crew: string, id: string) =>
  until(`experiment ${id} ends`, () => experimentNow(crew, id), ended, 240_000);
const cellsOf = async (crew: string, id: string) =>
  (await api("GET", `${base(crew)}/experiments/${id}/cells`)).json.cells as Json[];

/** The CLI as CI runs it; asynchronously, since the judge it waits for lives in this process. */
function runCli(
  args: string[],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["scripts/experiment.mjs", ...args], {
      env: { ...process.env, CREWDECK_URL: t.url(), CREWDECK_TOKEN: TEST_CREW_TOKEN },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

const T14 = 2.1447866879; // Student's t, 97.5%, 14 degrees of freedom
function expectStat(stat: Json, values: number[]) {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1));
  const half = (T14 * sd) / Math.sqrt(n);
  expect(stat.n).toBe(n);
  expect(stat.mean).toBeCloseTo(mean, 6);
  expect(stat.sd).toBeCloseTo(sd, 6);
  expect(stat.ci_low).toBeCloseTo(mean - half, 5);
  expect(stat.ci_high).toBeCloseTo(mean + half, 5);
}

describe(`datasets (${mode})`, () => {
  it("an upload with bad rows adds none and names each; skip_invalid keeps the good ones", async () => {
    const d = await dataset("typed-inputs", "typed rows");
    const csv =
      "topic,audience,words,tone,expected.write\n" +
      'Tides,kids,12,warm,"A note, on tides"\n' +
      ",kids,many,plain,\n" +
      "Moons,kids,5,loud,\n";
    const bad = await api("POST", `${base("typed-inputs")}/datasets/${d.id}/rows`, csv, {
      "content-type": "text/csv",
    });
    expectProblem(bad, 422);
    expect(bad.json.errors).toEqual([
      { row: 2, line: 3, path: "inputs.words", message: expect.any(String) },
      { row: 2, line: 3, path: "inputs.topic", message: "is required" },
      { row: 3, line: 4, path: "inputs.tone", message: "must be one of: plain, warm" },
    ]);
    expect(bad.json.detail).toMatch(
      /^2 of 3 rows do not fit crew 'typed-inputs'; nothing was added/,
    );
    const none = await api("GET", `${base("typed-inputs")}/datasets/${d.id}`);
    expect(none.json.rows).toEqual([]);

    const kept = await api(
      "POST",
      `${base("typed-inputs")}/datasets/${d.id}/rows?skip_invalid=true`,
      csv,
      { "content-type": "text/csv" },
    );
    expect(kept.status, kept.text).toBe(201);
    expect(kept.json).toMatchObject({ added: 1, positions: [1] });
    expect(kept.json.skipped).toHaveLength(3);
    const jsonl = await api(
      "POST",
      `${base("typed-inputs")}/datasets/${d.id}/rows`,
      '{"inputs": {"topic": "Sand", "audience": "all"}, "expected": {"write": "Grains."}}\n{"topic": "Wind", "audience": "all", "words": "7"}\n',
      { "content-type": "application/jsonl" },
    );
    expect(jsonl.status, jsonl.text).toBe(201);
    const rows = (await api("GET", `${base("typed-inputs")}/datasets/${d.id}`)).json.rows;
    expect(rows).toEqual([
      {
        position: 1,
        inputs: { topic: "Tides", audience: "kids", words: 12, tone: "warm" },
        expected: { write: "A note, on tides" },
        source_execution_id: null,
      },
      expect.objectContaining({ position: 2, expected: { write: "Grains." } }),
      expect.objectContaining({
        position: 3,
        inputs: { topic: "Wind", audience: "all", words: 7 },
      }),
    ]);

    const broken = await api("POST", `${base("typed-inputs")}/datasets/${d.id}/rows`, 'a\n"x', {
      "content-type": "text/csv",
    });
    expectProblem(broken, 400);
    expect(broken.json.detail).toContain("line 2");
    expectProblem(await api("GET", `${base("typed-inputs")}/datasets/not-a-uuid`), 404);
    expectProblem(
      await api("POST", `${base("typed-inputs")}/datasets`, { name: "typed rows" }),
      409,
    );
  });
});

describe(`reviewers' decisions (${mode})`, () => {
  const crew = () => crewClient(t.url(), "review", TEST_CREW_TOKEN);
  const paused = (s: Json) => s.status === "pending_human_input";
  const runs: string[] = [];
  const seen: Record<string, string> = {};

  async function decide(id: string, task: string, body: Record<string, unknown>, key: string) {
    const s = await crew().waitFor(id, (x) => paused(x) && x.pending_human_input?.task_id === task);
    seen[key] = s.pending_human_input.output;
    const r = await crew().resume({
      execution_id: id,
      task_id: task,
      human_feedback: "ok",
      ...body,
    });
    expect(r.status, r.text).toBe(200);
  }

  it("a dataset collected from reviewed runs takes the approved outputs, edits included", async () => {
    // Run 1: the draft approved with an edit, the polish approved as written.
    const one = await crew().start({ subject: "herons" });
    await decide(
      one,
      "draft",
      { is_approve: true, edited_output: "Herons wait. (edited)" },
      "1.draft",
    );
    await decide(one, "polish", { is_approve: true }, "1.polish");
    // Run 2: the draft sent back once, then approved; the polish approved.
    const two = await crew().start({ subject: "otters" });
    await decide(two, "draft", { is_approve: false, human_feedback: "Shorter." }, "2.draft.1");
    await decide(two, "draft", { is_approve: true }, "2.draft.2");
    await decide(two, "polish", { is_approve: true }, "2.polish");
    await crew().waitFor(two, (s) => s.status === "completed");
    runs.push(one, two);

    const d = await dataset("review", "from review");
    const other = await crewClient(t.url(), "brief", TEST_CREW_TOKEN).start({
      topic: "x",
      audience: "y",
    });
    const refused = await api("POST", `${base("review")}/datasets/${d.id}/collect`, {
      execution_ids: [one, other],
    });
    expectProblem(refused, 422);
    expect(refused.json.errors).toEqual([
      { row: 2, path: "execution_ids", message: `no run ${other} of crew 'review'` },
    ]);
    const r = await api("POST", `${base("review")}/datasets/${d.id}/collect`, {
      execution_ids: runs,
    });
    expect(r.status, r.text).toBe(201);
    const rows = (await api("GET", `${base("review")}/datasets/${d.id}`)).json.rows;
    expect(rows).toEqual([
      {
        position: 1,
        inputs: { subject: "herons" },
        expected: { draft: "Herons wait. (edited)", polish: seen["1.polish"] },
        source_execution_id: one,
      },
      {
        position: 2,
        inputs: { subject: "otters" },
        expected: { draft: seen["2.draft.2"], polish: seen["2.polish"] },
        source_execution_id: two,
      },
    ]);
  });

  it("a judge is calibrated against the reviewers: agreement with its interval", async () => {
    // What the judge scores is what each reviewer saw; pass_at 7 means "would approve".
    const scores: Record<string, number> = {
      "1.draft": 9, // approved: agrees
      "1.polish": 8, // approved: agrees
      "2.draft.1": 3, // sent back: agrees
      "2.draft.2": 4, // approved: disagrees
      "2.polish": 9, // approved: agrees
    };
    for (const [key, score] of Object.entries(scores))
      judgedOutputs.set(seen[key] as string, score);
    rubric = (prompt) => judgedOutputs.get(prompt.split("Output to evaluate:\n")[1] ?? "") ?? 1;
    const judge = { model: "openai/judge-model", rubric: "Clear and short.", pass_at: 7 };
    const uncalibrated = await api("POST", `${base("brief")}/calibrations`, { judge });
    expectProblem(uncalibrated, 422);
    const c = await api("POST", `${base("review")}/calibrations`, { judge });
    expect(c.status, c.text).toBe(202);
    const done = await until(
      "calibration ends",
      async () => (await api("GET", `${base("review")}/calibrations/${c.json.id}`)).json,
      (x: Json) => x.status !== "running",
    );
    expect(done).toMatchObject({
      status: "completed",
      total: 5,
      judged: 5,
      agreement: 0.8,
      confusion: {
        approve_approved: 3,
        approve_sent_back: 0,
        reject_approved: 1,
        reject_sent_back: 1,
      },
    });
    // Wilson's 95% interval for 4 of 5; kappa (0.8 − 0.56) / 0.44.
    expect(done.ci_low).toBeCloseTo(0.3755, 3);
    expect(done.ci_high).toBeCloseTo(0.9638, 3);
    expect(done.kappa).toBeCloseTo(0.545455, 5);
    const wrong = done.items.find((i: Json) => i.score === 4);
    expect(wrong).toMatchObject({
      approved: true,
      predicted: false,
      reason: "scored 4 by the script",
    });
  });
});

describe(`experiments (${mode})`, () => {
  const topics = ["tides", "moons", "winds", "sands", "reefs"];
  const rows = topics.map((topic) => ({ inputs: { topic, audience: "kids" } }));
  const terse = {
    name: "terse",
    changes: {
      tasks: { write: { description: "Write three short lines about {topic} for {audience}" } },
    },
  };

  it("2 variants × 5 rows × 3 repeats: exact means, spreads and intervals; gates; pairwise", async () => {
    // Each row's three repeats get 7, 8, 9 from the judge as it is, 4, 6, 8 as the terse
    // variant: in whatever order the runs finish, each variant's 15 scores are these.
    const given = new Map<string, number>();
    rubric = (prompt) => {
      const variant = prompt.includes("three short lines") ? "terse" : "current";
      const topic = topics.find((x) => prompt.includes(`about ${x}`)) ?? "?";
      const key = `${variant}/${topic}`;
      const n = given.get(key) ?? 0;
      given.set(key, n + 1);
      return (variant === "terse" ? [4, 6, 8] : [7, 8, 9])[n] ?? 1;
    };
    const d = await dataset("brief", "five topics", rows);
    const x = await experiment("brief", {
      name: "terse vs current",
      dataset: d.name,
      variants: ["current", terse],
      repeats: 3,
      parallelism: 4,
      scorers: [
        { type: "judge", name: "quality", model: "openai/judge-model", preset: "crewai" },
        { type: "contains", value: "kids", task: "write" },
        { type: "pairwise", model: "openai/judge-model", variants: ["current", "terse"] },
      ],
      gates: [
        { metric: "quality", min: 7 },
        { metric: "quality", max_drop: 1 },
      ],
    });
    // A worker may already have started some cells by the time the answer is read.
    expect(x.progress).toMatchObject({ total: 30, skipped: 0 });
    expect(x.progress.pending + x.progress.running + x.progress.scored).toBe(30);
    expect(x.variants.map((v: Json) => v.name)).toEqual(["current", "terse"]);
    expect(x.variants[0].definition_key).not.toBe(x.variants[1].definition_key);

    const done = await finished("brief", x.id);
    expect(done.status).toBe("completed");
    expect(done.progress).toMatchObject({ total: 30, scored: 30 });
    const stat = (variant: string, metric: string) =>
      done.matrix.stats.find((s: Json) => s.variant === variant && s.metric === metric);
    expectStat(stat("current", "quality"), [7, 8, 9, 7, 8, 9, 7, 8, 9, 7, 8, 9, 7, 8, 9]);
    expectStat(stat("terse", "quality"), [4, 6, 8, 4, 6, 8, 4, 6, 8, 4, 6, 8, 4, 6, 8]);
    expect(stat("terse", "quality").delta).toBe(-2);
    expect(stat("current", "completed")).toMatchObject({ n: 15, mean: 1, sd: 0 });
    // The judge was never calibrated on this crew: the matrix says so.
    expect(done.matrix.metrics.find((m: Json) => m.name === "quality").calibration).toBeNull();
    expect(done.gates).toEqual([
      {
        variant: "current",
        metric: "quality",
        passed: true,
        message: "quality 8 meets the minimum 7",
      },
      {
        variant: "terse",
        metric: "quality",
        passed: false,
        message: "quality 6 misses the minimum 7",
      },
      {
        variant: "terse",
        metric: "quality",
        passed: false,
        message: "quality 6 vs current 8: worse by 2, beyond the margin 1",
      },
    ]);
    expect(done.passed).toBe(false);

    // Each cell is one run of its variant's pinned definition; the judge's reasons are kept.
    const cells = await cellsOf("brief", x.id);
    expect(new Set(cells.map((c) => c.execution_id)).size).toBe(30);
    expect(cells[0].scores.quality.reason).toMatch(/^scored \d by the script$/);
    // Pairwise: the scripted judge prefers the longer answer, whichever order it saw them in.
    const longer = { current: 0, terse: 0, tie: 0 };
    for (const c of cells.filter((c) => c.variant === "current")) {
      const other = cells.find(
        (o) => o.variant === "terse" && o.row === c.row && o.repeat === c.repeat,
      );
      const [a, b] = [c.outputs.result.length, other.outputs.result.length];
      longer[a === b ? "tie" : a > b ? "current" : "terse"]++;
    }
    expect(done.pairwise).toEqual([
      expect.objectContaining({
        a: "current",
        b: "terse",
        n: 15,
        a_wins: longer.current,
        b_wins: longer.terse,
        ties: longer.tie,
      }),
    ]);
  });

  it("stops at its budget: what had not run is skipped", async () => {
    rubric = () => 5;
    const d = await dataset("brief", "budget rows", rows);
    const x = await experiment("brief", {
      name: "budget",
      dataset: d.id,
      variants: ["current"],
      repeats: 2,
      parallelism: 1,
      budget: { max_tokens: 1 },
    });
    const done = await finished("brief", x.id);
    expect(done.status).toBe("budget_reached");
    expect(done.stop_reason).toMatch(/^Budget reached: \d+ of 1 tokens used\.$/);
    expect(done.progress.scored + done.progress.skipped).toBe(10);
    expect(done.progress.skipped).toBeGreaterThanOrEqual(9);
    const cells = await cellsOf("brief", x.id);
    expect(cells.filter((c) => c.execution_id).length).toBeLessThanOrEqual(1);
  });

  it("a restart mid-experiment finishes it without running a finished cell again", async () => {
    rubric = () => 6;
    const d = await dataset("brief", "restart rows", rows);
    const x = await experiment("brief", {
      name: "restart",
      dataset: d.id,
      variants: ["current", terse],
      repeats: 2,
      parallelism: 2,
      scorers: [{ type: "judge", model: "openai/judge-model" }],
    });
    const before = await until(
      "some cells scored",
      () => experimentNow("brief", x.id),
      (e: Json) => e.progress.scored >= 4,
    );
    expect(before.status).toBe("running");
    const scoredBefore = (await cellsOf("brief", x.id)).filter((c) => c.status === "scored");
    await t.killWorker("SIGKILL");
    await t.startWorker();
    const done = await finished("brief", x.id);
    expect(done).toMatchObject({ status: "completed", progress: { total: 20, scored: 20 } });
    const cells = await cellsOf("brief", x.id);
    // The cells scored before the kill kept their runs; no cell has a second run.
    for (const c of scoredBefore)
      expect(cells.find((x) => x.n === c.n)?.execution_id).toBe(c.execution_id);
    const runs = await api("GET", "/api/runs?crew=brief&per_page=100");
    const mine = runs.json.runs.filter((r: Json) => r.started_by?.id === x.id);
    expect(mine).toHaveLength(20);
    expect(
      mine.every((r: Json) => r.started_by.via === "experiment" && r.meta.experiment === x.id),
    ).toBe(true);
    expect(
      done.matrix.stats.find((s: Json) => s.metric === "judge" && s.variant === "current"),
    ).toMatchObject({
      n: 10,
      mean: 6,
    });
  });

  it("npm run experiment runs a YAML file and fails on a gate, with JUnit and JSON reports", async () => {
    rubric = () => 6;
    await dataset("brief", "cli rows", rows.slice(0, 2));
    const dir = tempDir("experiment-cli");
    const file = path.join(dir, "nightly.yaml");
    fs.writeFileSync(
      file,
      [
        "crew: brief",
        "dataset: cli rows",
        "variants: [current]",
        "scorers:",
        "  - {type: judge, name: quality, model: openai/judge-model}",
        "gates:",
        "  - {metric: completed, min: 1}",
        "  - {metric: quality, min: 7}",
      ].join("\n"),
    );
    const junit = path.join(dir, "out/report.xml");
    const json = path.join(dir, "out/report.json");
    const cli = await runCli([file, "--junit", junit, "--json", json]);
    expect(cli.status, cli.stderr + cli.stdout).toBe(1);
    expect(cli.stdout).toContain("FAIL  current: quality 6 misses the minimum 7");
    const report = JSON.parse(fs.readFileSync(json, "utf8"));
    expect(report).toMatchObject({ name: "nightly", status: "completed", passed: false });
    const xml = fs.readFileSync(junit, "utf8");
    expect(xml).toContain('tests="3" failures="1"');
    expect(xml).toContain('<failure message="quality 6 misses the minimum 7"/>');

    // A file the server refuses: exit 2 with the server's reason.
    fs.writeFileSync(file, "crew: brief\ndataset: no such rows\nvariants: [current]\n");
    const refused = await runCli([file]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain("404 No dataset 'no such rows'");
  });

  it("refuses what cannot run, naming it", async () => {
    const d = await dataset("brief", "refusals", rows.slice(0, 1));
    const r = await api("POST", `${base("brief")}/experiments`, {
      name: "bad",
      dataset: d.id,
      variants: ["current", { name: "x", changes: { agents: { editor: { goal: "y" } } } }],
    });
    expectProblem(r, 422);
    expect(r.json.errors.map((e: Json) => e.path)).toEqual(["variants.1.changes.agents.editor"]);
    const s = await api("POST", `${base("brief")}/experiments`, {
      name: "bad",
      dataset: d.id,
      variants: ["current"],
      scorers: [
        { type: "regex", pattern: "(" },
        { type: "contains", value: "x", task: "nope" },
      ],
      gates: [{ metric: "nope", min: 1 }],
    });
    expectProblem(s, 422);
    expect(s.json.errors.map((e: Json) => e.path)).toEqual([
      "scorers.0.pattern",
      "scorers.1.task",
      "gates.0.metric",
    ]);
    expectProblem(
      await api("POST", `${base("brief")}/experiments`, {
        name: "x",
        dataset: "nope",
        variants: ["current"],
      }),
      404,
    );
  });
});
