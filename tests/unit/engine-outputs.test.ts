import { beforeAll, describe, expect, it } from "vitest";
import type { ExecutionRow } from "@/lib/run-model/types";
import { type EventRow, engineHarness } from "../support/engine-harness";
import { queryAs } from "../support/rows";

// The real engine on the embedded database, with the offline model: structured output, output
// files and guardrails each take their retry path and end as CrewAI's would.

const AGENT = `agents:
  analyst:
    role: Analyst
    goal: "Study {topic}"
    backstory: Exact.
    llm: offline
`;
const CREWS: Record<string, string> = {
  shaped: `${AGENT}tasks:
  rate:
    description: "Rate {topic} for investors."
    expected_output: "A rating."
    agent: analyst
    output_json:
      type: object
      properties:
        title: { type: string }
        points: { type: array, items: { type: string }, minItems: 2 }
        score: { type: integer, minimum: 1, maximum: 5 }
      required: [title, points, score]
      additionalProperties: false
    output_file: "ratings/{topic}.json"
  note:
    description: "Write a short note on {topic}."
    expected_output: "A note."
    agent: analyst
    guardrail: "The note must be at most 25 words."
    guardrails: ["It must mention tidal"]
    output_file: "notes/{topic}.md"
`,
  strict: `${AGENT}tasks:
  t:
    description: "Describe {topic}."
    expected_output: "A description."
    agent: analyst
    guardrail: "At most 3 words."
    guardrails: ["It must mention the deep ocean floor"]
    guardrail_max_retries: 1
    output_file: "never.md"
`,
  unmatchable: `${AGENT}tasks:
  t:
    description: "Code {topic}."
    expected_output: "A code."
    agent: analyst
    output_json:
      type: object
      properties: { code: { type: string, pattern: "^[0-9]+$" } }
      required: [code]
`,
};

const engine = engineHarness(CREWS);

beforeAll(() => {
  expect(engine.catalog().errors).toEqual([]);
  expect(engine.catalog().warnings).toEqual([]);
});

async function run(slug: string): Promise<{ row: ExecutionRow; events: EventRow[] }> {
  const id = await engine.kickoff(slug, { topic: "tidal power" });
  // Polls the database until the run ends; no timing window decides the outcome.
  const row = await engine.waitFor(
    id,
    (r) => ["completed", "error", "cancelled"].includes(r.status),
    60_000,
  );
  return { row, events: await engine.events(id) };
}

const CHECKS = ["output_invalid", "guardrail_failed", "guardrail_passed", "task_completed"];
const checks = (events: EventRow[], task: string) =>
  events.filter((e) => e.task_id === task && CHECKS.includes(e.type)).map((e) => e.type);

async function artifacts(id: string) {
  const { rows } = await queryAs<{
    name: string;
    task_id: string;
    content_type: string;
    body: string;
    bytes: number;
  }>(
    engine.db(),
    "SELECT name, task_id, content_type, body, bytes FROM execution_artifacts WHERE execution_id = $1 ORDER BY name",
    [id],
  );
  return rows;
}

describe("output checks in the engine", () => {
  let shaped: { row: ExecutionRow; events: EventRow[] };
  beforeAll(async () => {
    shaped = await run("shaped");
  }, 30_000);

  it("retries JSON that breaks the schema, then stores the document as JSON text", () => {
    const { row, events } = shaped;
    expect(row.status).toBe("completed");
    const rate = row.tasks[0];
    expect(rate?.attempts).toBe(1);
    const doc = JSON.parse(rate?.output ?? "");
    expect(doc).toEqual({
      title: "title: Rate tidal power for investors.",
      points: [
        "points 1: Rate tidal power for investors.",
        "points 2: Rate tidal power for investors.",
      ],
      score: 1,
    });
    expect(checks(events, "rate")).toEqual(["output_invalid", "task_completed"]);
    const invalid = events.find((e) => e.type === "output_invalid");
    expect(invalid?.data).toMatchObject({
      errors: ["/ must NOT have additional properties ('_written_by')"],
      retry: 1,
      max_retries: 2,
      final: false,
    });
    expect(
      events.find((e) => e.type === "task_completed" && e.task_id === "rate")?.data,
    ).toMatchObject({
      format: "json",
      artifact: { name: "ratings/tidal-power.json", content_type: "application/json" },
    });
  });

  it("fails a guardrail, retries with the reason, then passes every guardrail in order", () => {
    const { row, events } = shaped;
    const note = row.tasks[1];
    expect(note?.attempts).toBe(1);
    expect(checks(events, "note")).toEqual([
      "guardrail_failed",
      "guardrail_passed",
      "guardrail_passed",
      "task_completed",
    ]);
    const failed = events.find((e) => e.type === "guardrail_failed");
    expect(failed?.data).toMatchObject({
      guardrail: "The note must be at most 25 words.",
      retry: 1,
      max_retries: 3,
      final: false,
    });
    expect(String(failed?.data.reason)).toMatch(
      /^The output has \d+ words; the rule allows at most 25\.$/,
    );
    expect(
      events.filter((e) => e.type === "guardrail_passed").map((e) => e.data.guardrail),
    ).toEqual(["The note must be at most 25 words.", "It must mention tidal"]);
    // Two answers in one attempt: the first, sent back, and the revision that passed.
    expect(events.filter((e) => e.type === "answer" && e.task_id === "note")).toHaveLength(2);
    expect(note?.output?.split(/\s+/).length).toBeLessThanOrEqual(25);
    expect(row.result).toBe(note?.output);
    // Check events take their place in the one gapless log.
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
  });

  it("keeps each output_file's output as the run's artifact, named from the inputs", async () => {
    const files = await artifacts(shaped.row.id);
    expect(files.map((f) => [f.name, f.task_id, f.content_type])).toEqual([
      ["notes/tidal-power.md", "note", "text/markdown; charset=utf-8"],
      ["ratings/tidal-power.json", "rate", "application/json"],
    ]);
    expect(files[1]?.body).toBe(shaped.row.tasks[0]?.output);
    expect(files[1]?.bytes).toBe(Buffer.byteLength(files[1]?.body ?? ""));
  });

  it("fails the task with a clear message once guardrail retries run out; keeps no file", async () => {
    const { row, events } = await run("strict");
    expect(row.status).toBe("error");
    expect(row.error).toBe(
      `Task 't' failed its guardrail after 1 retry: The output does not mention 'the deep ocean floor'. (guardrail: "It must mention the deep ocean floor")`,
    );
    expect(checks(events, "t")).toEqual([
      "guardrail_failed",
      "guardrail_passed",
      "guardrail_failed",
    ]);
    expect(events.filter((e) => e.type === "guardrail_failed").map((e) => e.data.final)).toEqual([
      false,
      true,
    ]);
    expect(events.at(-2)?.type).toBe("task_failed");
    expect(await artifacts(row.id)).toEqual([]);
  });

  it("gives up on JSON the model cannot get right after the bound", async () => {
    const { row, events } = await run("unmatchable");
    expect(row.status).toBe("error");
    expect(row.error).toMatch(
      /^Task 't' gave no JSON matching its output_json schema in 3 tries: \/code must match pattern/,
    );
    expect(events.filter((e) => e.type === "output_invalid").map((e) => e.data.final)).toEqual([
      false,
      false,
      true,
    ]);
  });
});
