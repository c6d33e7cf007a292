import { beforeAll, describe, expect, it } from "vitest";
import { loadCrews } from "@/lib/crew/load-crews";
import type { CrewDef } from "@/lib/crew/schema";
import { AppError } from "@/lib/errors";
import { parseCsv } from "@/lib/experiments/csv";
import { checkRows, rowsFromCsv, rowsFromJsonLines } from "@/lib/experiments/dataset-rows";
import { gatesOf, matrixOf, pairwiseOf } from "@/lib/experiments/matrix";
import { applyChanges, unattended } from "@/lib/experiments/overlay";
import { checkScore, metricsOf, type RunOutcome, wordF1 } from "@/lib/experiments/scorers";
import { FIXTURE_CREWS } from "../support/harness";

let crews: Map<string, CrewDef>;
beforeAll(() => {
  crews = loadCrews(FIXTURE_CREWS).crews;
});
const crew = (slug: string) => crews.get(slug) as CrewDef;

function refusal(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error("expected a refusal");
}

describe("CSV", () => {
  it("reads quoted fields, doubled quotes, newlines in quotes, CRLF and a BOM", () => {
    const text = '\ufefftopic,note\r\n"Tides, and moons","say ""hi""\nthen go"\r\n\r\nplain,x\n';
    expect(parseCsv(text)).toEqual([
      { line: 1, fields: ["topic", "note"] },
      { line: 2, fields: ["Tides, and moons", 'say "hi"\nthen go'] },
      { line: 5, fields: ["plain", "x"] },
    ]);
  });

  it("says where it is malformed", () => {
    expect(() => parseCsv('a,b\n1,"open')).toThrow(/line 2: a quoted field is never closed/);
    expect(() => parseCsv('a\nx"y')).toThrow(/line 2: a quote inside an unquoted field/);
  });
});

describe("dataset rows", () => {
  it("checks each CSV row as kickoff checks inputs, naming row, line and field", () => {
    const rows = rowsFromCsv(
      "topic,audience,words,tone,expected.write,expected.nope\nTides,kids,12,warm,A note on tides,\n,kids,many,loud,,x\n",
    );
    const { valid, invalid } = checkRows(crew("typed-inputs"), rows);
    expect(valid).toEqual([
      {
        row: 1,
        inputs: { topic: "Tides", audience: "kids", words: 12, tone: "warm" },
        expected: { write: "A note on tides" },
      },
    ]);
    expect(invalid.map((e) => [e.row, e.line, e.path])).toEqual([
      [2, 3, "inputs.words"],
      [2, 3, "inputs.tone"],
      [2, 3, "inputs.topic"],
      [2, 3, "expected.nope"],
    ]);
    expect(invalid.find((e) => e.path === "expected.nope")?.message).toContain("tasks: write");
  });

  it("reads JSON Lines rows, structured or flat, and refuses a line that is not JSON", () => {
    const rows = rowsFromJsonLines(
      '{"inputs": {"topic": "A"}, "expected": {"write": "x"}}\n\n{"topic": "B", "tone": "plain"}\n',
    );
    expect(rows.map((r) => [r.row, r.line, r.inputs, r.expected])).toEqual([
      [1, 1, { topic: "A" }, { write: "x" }],
      [2, 3, { topic: "B", tone: "plain" }, {}],
    ]);
    expect(refusal(() => rowsFromJsonLines('{"a": 1}\nnot json')).message).toMatch(
      /^JSON Lines: row 2 \(line 2\) is not valid JSON: /,
    );
  });
});

describe("variants", () => {
  it("lays changes over the crew without touching it", () => {
    const brief = crew("brief");
    const v = applyChanges(brief, {
      agents: { writer: { llm: "openai/gpt-4o-mini", goal: "Write tersely" } },
      tasks: { write: { description: "Write three lines about {topic}" } },
    });
    expect(v.agents.find((a) => a.id === "writer")).toMatchObject({
      llm: "openai/gpt-4o-mini",
      goal: "Write tersely",
    });
    expect(v.tasks.find((t) => t.id === "write")?.description).toBe(
      "Write three lines about {topic}",
    );
    expect(brief.tasks.find((t) => t.id === "write")?.description).toBe(
      "Write about {topic} for {audience}",
    );
  });

  it("names what does not fit", () => {
    const err = refusal(() =>
      applyChanges(crew("brief"), {
        agents: { editor: { goal: "x" }, writer: { tools: ["no_such_tool"] } },
        tasks: { publish: { description: "x" } },
      }),
    );
    expect(err.status).toBe(422);
    expect((err.details.errors as { path: string }[]).map((e) => e.path)).toEqual([
      "changes.agents.editor",
      "changes.tasks.publish",
      "changes.agents.writer.tools.0",
    ]);
  });

  it("switches the process, the manager handing each task to its own agent", () => {
    const v = applyChanges(crew("brief"), { process: "hierarchical", manager_llm: "offline" });
    expect(v.process).toBe("hierarchical");
    expect(v.tasks.map((t) => [t.agent, t.delegate_to])).toEqual([
      ["crew_manager", "researcher"],
      ["crew_manager", "writer"],
    ]);
    const back = applyChanges(v, { process: "sequential" });
    expect(back.tasks.map((t) => t.agent)).toEqual(["researcher", "writer"]);
    expect(back.manager).toBeUndefined();
  });

  it("runs unattended in an experiment: no task waits for review", () => {
    expect(unattended(crew("review")).tasks.map((t) => t.human_input)).toEqual([false, false]);
  });
});

const outcome = (result: string, extra: Partial<RunOutcome> = {}): RunOutcome => ({
  status: "completed",
  result,
  tasks: [],
  latency_s: 1,
  tokens: 10,
  cost_usd: 0,
  guardrails: {},
  ...extra,
});

describe("scorers", () => {
  it("checks contains, regex, equals (the row's expected output), similarity and length", async () => {
    const c = crew("brief");
    const o = outcome("The tide rises twice a day.");
    const want = { write: "The tide rises twice daily." };
    expect((await checkScore({ type: "contains", value: "tide" }, o, c, want)).value).toBe(1);
    expect(
      (await checkScore({ type: "regex", pattern: "^the", flags: "i" }, o, c, want)).value,
    ).toBe(1);
    expect((await checkScore({ type: "equals" }, o, c, want)).value).toBe(0);
    expect(await checkScore({ type: "equals" }, o, c, {})).toEqual({
      value: null,
      reason: "the row has no expected output",
    });
    // 4 of 6 words shared with 5 expected words: P 4/6, R 4/5 → F1 8/11.
    expect((await checkScore({ type: "similarity" }, o, c, want)).value).toBeCloseTo(8 / 11, 6);
    expect(await checkScore({ type: "length", unit: "words", max: 5 }, o, c, want)).toEqual({
      value: 0,
      reason: "6 words",
    });
    expect((await checkScore({ type: "json_schema" }, o, c, want)).value).toBeNull();
    expect(wordF1("a b", "a b")).toBe(1);
  });

  it("names metrics by type and task, numbering repeats", () => {
    const names = metricsOf([
      { type: "contains", value: "x" },
      { type: "contains", value: "y" },
      { type: "judge", model: "offline", task: "write", pass_at: 7 },
    ]).map((m) => m.name);
    expect(names).toEqual([
      "completed",
      "latency_s",
      "tokens",
      "cost_usd",
      "contains",
      "contains.2",
      "judge.write",
    ]);
  });
});

describe("the matrix", () => {
  const metrics = metricsOf([{ type: "contains", value: "x" }]);
  const cells = [
    ...[1, 0, 1, 1].map((v) => ({
      variant: "current",
      scores: { contains: { value: v }, latency_s: { value: 2 } },
    })),
    ...[0, 0, 1, 0].map((v) => ({
      variant: "terse",
      scores: { contains: { value: v }, latency_s: { value: 1 } },
    })),
  ];
  const stats = matrixOf(metrics, ["current", "terse"], "current", cells);

  it("gives each variant's mean, spread, interval and distance from the baseline", () => {
    const terse = stats.find((s) => s.variant === "terse" && s.metric === "contains");
    expect(terse).toMatchObject({ n: 4, mean: 0.25, sd: 0.5, delta: -0.5 });
    expect(terse?.ci_high).toBeCloseTo(0.25 + (3.182446 * 0.5) / 2, 5);
    expect(stats.find((s) => s.variant === "terse" && s.metric === "tokens")?.mean).toBeNull();
  });

  it("holds gates: a minimum for all, a margin below the baseline for the others", () => {
    const gates = gatesOf(
      [
        { metric: "contains", min: 0.5, max_drop: 0.2 },
        { metric: "latency_s", max_drop: 0 },
      ],
      metrics,
      stats,
      "current",
    );
    expect(gates.map((g) => [g.variant, g.metric, g.passed])).toEqual([
      ["current", "contains", true],
      ["terse", "contains", false],
      ["terse", "contains", false],
      ["terse", "latency_s", true],
    ]);
    expect(gates[2]?.message).toBe(
      "contains 0.25 vs current 0.75: worse by 0.5, beyond the margin 0.2",
    );
  });

  it("counts pairwise wins, ties as half", () => {
    const [p] = pairwiseOf(
      [{ name: "pairwise", variants: ["a", "b"] }],
      [
        { metric: "pairwise", winner: "a" },
        { metric: "pairwise", winner: "a" },
        { metric: "pairwise", winner: "tie" },
        { metric: "pairwise", winner: "b" },
        { metric: "pairwise", winner: null },
      ],
    );
    expect(p).toMatchObject({ n: 4, a_wins: 2, b_wins: 1, ties: 1, a_win_rate: 0.625 });
  });
});
