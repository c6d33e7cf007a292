import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateText } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, describe, expect, it } from "vitest";
import { loadCrews } from "@/lib/crew/load-crews";
import type { TaskDef } from "@/lib/crew/schema";
import { answerWithChecks, type CheckEvent } from "@/lib/engine/checked-answer";
import {
  guardrailPrompt,
  outputFormatSection,
  parseVerdict,
  retrySections,
} from "@/lib/engine/output-prompt";
import { createOfflineModel } from "@/lib/llm/offline-model";
import { judge, revise } from "@/lib/llm/offline-rules";
import {
  ARTIFACT_MAX_BYTES,
  ArtifactError,
  artifactFor,
  artifactName,
  contentTypeFor,
  nameProblem,
  templateProblem,
} from "@/lib/outputs/output-file";
import { parseStructured, schemaError } from "@/lib/outputs/structured-output";

const SCHEMA = {
  type: "object",
  properties: {
    title: { type: "string", minLength: 3 },
    points: { type: "array", items: { type: "string" }, minItems: 2 },
    score: { type: "integer", minimum: 1, maximum: 5 },
    level: { enum: ["low", "high"] },
  },
  required: ["title", "points", "score", "level"],
  additionalProperties: false,
};

describe("output_file names", () => {
  it.each([
    ["report.md", undefined],
    ["reports/{topic}.md", undefined],
    ["./out/report.md", undefined],
    ["/etc/passwd", "must be a relative name, not an absolute path"],
    ["C:/temp/x.md", "must be a relative name, not an absolute path"],
    ["~/x.md", "must be a relative name, not an absolute path"],
    ["../secrets.md", "must not contain '..'"],
    ["a/../../b.md", "must not contain '..'"],
    ["a\\b.md", "must use '/' between folders, not '\\'"],
    [
      ".env",
      "'.env' is not a safe name: letters, digits, '.', '_', '-' or spaces, not starting with '.'",
    ],
    ["a/b/c/d/e.md", "has more than 4 levels of folders"],
    [
      "a$b.md",
      "'a$b.md' is not a safe name: letters, digits, '.', '_', '-' or spaces, not starting with '.'",
    ],
  ])("template %s → %s", (template, problem) => {
    expect(templateProblem(template)).toBe(problem);
  });

  it("fills inputs in, made safe first: a value cannot climb out or add folders", () => {
    expect(artifactName("reports/{topic}.md", { topic: "tidal power" })).toBe(
      "reports/tidal-power.md",
    );
    expect(artifactName("{topic}.md", { topic: "../../etc/passwd" })).toBe("etc-passwd.md");
    expect(artifactName("{topic}.md", { topic: ".." })).toBe("input.md");
    expect(artifactName("{topic}.md", { topic: "/abs" })).toBe("abs.md");
    expect(nameProblem(artifactName("{topic}", { topic: "x".repeat(500) }))).toBeUndefined();
  });

  it("says what a download is; HTML is served as text", () => {
    expect(contentTypeFor("a.json")).toBe("application/json");
    expect(contentTypeFor("a.MD")).toBe("text/markdown; charset=utf-8");
    expect(contentTypeFor("a.html")).toBe("text/plain; charset=utf-8");
    expect(contentTypeFor("noext")).toBe("text/plain; charset=utf-8");
  });

  it("refuses an output bigger than the limit", () => {
    const big = "x".repeat(ARTIFACT_MAX_BYTES + 1);
    expect(() => artifactFor("a.txt", {}, "t", big)).toThrow(ArtifactError);
    expect(artifactFor("a.txt", {}, "t", "héllo").bytes).toBe(6);
  });
});

describe("structured output", () => {
  const good = { title: "Tidal", points: ["a", "b"], score: 3, level: "low" };

  it("accepts the document alone, fenced, or inside prose; stores it re-serialised", () => {
    for (const answer of [
      JSON.stringify(good),
      `\`\`\`json\n${JSON.stringify(good)}\n\`\`\``,
      `Here it is:\n${JSON.stringify(good)}\nThanks.`,
    ]) {
      const r = parseStructured(answer, SCHEMA);
      expect(r).toEqual({ ok: true, value: good, text: JSON.stringify(good, null, 2) });
    }
  });

  it("names every violation", () => {
    const r = parseStructured(
      JSON.stringify({ title: "T", points: ["a"], score: 9, level: "mid", extra: 1 }),
      SCHEMA,
    );
    expect(r.ok).toBe(false);
    expect(!r.ok && r.errors).toEqual([
      "/ must NOT have additional properties ('extra')",
      "/title must NOT have fewer than 3 characters",
      "/points must NOT have fewer than 2 items",
      "/score must be <= 5",
      '/level must be equal to one of the allowed values (["low","high"])',
    ]);
    expect(parseStructured("not json", SCHEMA)).toMatchObject({ ok: false });
  });

  it("refuses a schema that cannot be compiled", () => {
    expect(schemaError(SCHEMA)).toBeUndefined();
    expect(schemaError({ type: "nonsense" })).toMatch(/^not a usable JSON Schema/);
  });
});

describe("the offline model and output checks", () => {
  const model = createOfflineModel();
  const ask = async (prompt: string) =>
    (await generateText({ model, system: "You are Tester.", prompt })).text;

  it("answers a schema with a conforming document, labelled unless the label was refused", async () => {
    const prompt = `# Task\nRate tidal power.\n\n${outputFormatSection(SCHEMA)}`;
    const first = parseStructured(await ask(prompt), SCHEMA);
    expect(first.ok).toBe(false);
    expect(!first.ok && first.errors).toEqual([
      "/ must NOT have additional properties ('_written_by')",
    ]);
    const again = await ask(
      `${prompt}\n\n${retrySections("{}", ["/ must NOT have additional properties ('_written_by')"])}`,
    );
    const second = parseStructured(again, SCHEMA);
    expect(second).toMatchObject({ ok: true, value: { score: 1, level: "low" } });
    // Without additionalProperties: false the labelled document is valid as it is.
    const open = { ...SCHEMA, additionalProperties: true };
    expect(parseStructured(await ask(`# Task\nX\n\n${outputFormatSection(open)}`), open).ok).toBe(
      true,
    );
  });

  it("reads a checker's verdict only from how its reply begins, as real models write it", () => {
    expect(parseVerdict("PASS")).toEqual({ pass: true, reason: "" });
    expect(parseVerdict("  **PASS** - the output keeps the rule.\n")).toEqual({
      pass: true,
      reason: "the output keeps the rule.",
    });
    expect(parseVerdict("pass: short enough")).toEqual({ pass: true, reason: "short enough" });
    expect(parseVerdict("\n**FAIL**: it names no source.  ")).toEqual({
      pass: false,
      reason: "it names no source.",
    });
    expect(parseVerdict("FAIL:\n\nToo long.\nCut it to 3 words.")).toEqual({
      pass: false,
      reason: "Too long.\nCut it to 3 words.",
    });
    expect(parseVerdict("FAIL:no source")).toEqual({ pass: false, reason: "no source" });
    expect(parseVerdict("FAIL")).toEqual({ pass: false, reason: "The guardrail check failed." });
    // A verdict that mentions the other word later is still the first word's.
    expect(parseVerdict("FAIL: it would PASS if it were shorter.")).toMatchObject({ pass: false });
    expect(parseVerdict("PASSED")).toMatchObject({ pass: false });
    // A reply that begins with neither fails, and says what it was (cut to 300 characters).
    const rambling = `It does not FAIL, so I would PASS it. ${"x".repeat(400)}`;
    const verdict = parseVerdict(` ${rambling}`);
    expect(verdict.pass).toBe(false);
    expect(verdict.reason).toBe(
      `The checker's reply said neither PASS nor FAIL: ${rambling.slice(0, 300)}`,
    );
  });

  it("judges word limits and words to mention, and says why", async () => {
    const check = async (rule: string, output: string) => {
      const { system, prompt } = guardrailPrompt(rule, output);
      return parseVerdict((await generateText({ model, system, prompt })).text);
    };
    expect(await check("At most 3 words.", "one two three four")).toEqual({
      pass: false,
      reason: "The output has 4 words; the rule allows at most 3.",
    });
    expect(await check("At most 3 words.", "one two three")).toMatchObject({ pass: true });
    expect(await check("It must mention tides.", "waves")).toEqual({
      pass: false,
      reason: "The output does not mention 'tides'.",
    });
    expect(await check("It must not mention price.", "The price")).toMatchObject({ pass: false });
    expect(await check("Be polite.", "anything")).toMatchObject({ pass: true });
    expect(judge("fewer than 3 words", "a b c").pass).toBe(false);
  });

  it("revises to keep the rules it was told about", () => {
    const text = revise(
      "Write a long essay on tidal power.",
      'Guardrail "At most 6 words; it must mention Severn" failed',
    );
    expect(judge("at most 6 words", text).pass).toBe(true);
    expect(judge("must mention Severn", text).pass).toBe(true);
  });

  it("reads a checker's reply; one that says neither is a failure", () => {
    expect(parseVerdict("PASS")).toEqual({ pass: true, reason: "" });
    expect(parseVerdict("**FAIL**: too long")).toEqual({ pass: false, reason: "too long" });
    expect(parseVerdict("maybe")).toMatchObject({ pass: false });
  });
});

// A scripted model: each call answers the next reply in the list.
function scripted(replies: string[]) {
  let i = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: "text", text: replies[Math.min(i++, replies.length - 1)] ?? "" }],
      finishReason: { unified: "stop", raw: "stop" },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 1, text: 1, reasoning: 0 },
      },
      warnings: [],
    }),
  });
}

function task(extra: Partial<TaskDef>): TaskDef {
  return {
    id: "t",
    name: "T",
    description: "d",
    expected_output: "e",
    agent: "a",
    human_input: false,
    ...extra,
  };
}

async function checked(t: TaskDef, answers: string[], verdicts: string[]) {
  const asked: string[] = [];
  const events: CheckEvent[] = [];
  const result = await answerWithChecks({
    task: t,
    model: scripted(verdicts),
    maxRetries: 0,
    signal: new AbortController().signal,
    ask: async (extra) => {
      asked.push(extra);
      return {
        output: answers[asked.length - 1] ?? "",
        usage: { input_tokens: 1, output_tokens: 1 },
      };
    },
    record: async (e) => {
      events.push(...e);
    },
  });
  return { result, asked, events };
}

describe("answerWithChecks", () => {
  it("retries invalid JSON with the errors as feedback, then stores the document", async () => {
    const { result, asked, events } = await checked(
      task({ output_json: SCHEMA }),
      ["nope", JSON.stringify({ title: "Tidal", points: ["a", "b"], score: 2, level: "high" })],
      [],
    );
    expect(result).toMatchObject({ ok: true, format: "json" });
    expect(asked[0]).toContain("# Output format");
    expect(asked[1]).toContain("# Your previous answer\nnope");
    expect(asked[1]).toContain("- The JSON does not match the schema: the answer is not JSON");
    expect(events.map((e) => [e.type, e.data.retry, e.data.final])).toEqual([
      ["output_invalid", 1, false],
    ]);
  });

  it("gives up on JSON after the bound, saying why", async () => {
    const { result, asked } = await checked(
      task({ output_json: SCHEMA }),
      ["{}", "{}", "{}", "{}"],
      [],
    );
    expect(asked).toHaveLength(3);
    expect(result).toMatchObject({ ok: false });
    expect(!result.ok && result.error).toMatch(
      /^Task 't' gave no JSON matching its output_json schema in 3 tries: \/ must have required property 'title'/,
    );
  });

  it("checks guardrails in order; a failure retries with its reason; retries are bounded", async () => {
    const t = task({ guardrail: "Rule A", guardrails: ["Rule B"], guardrail_max_retries: 1 });
    const pass = await checked(t, ["one", "two"], ["FAIL: too vague", "PASS", "PASS"]);
    // The answer's tokens are every try's: each ask used 1 in and 1 out.
    expect(pass.result).toEqual({
      ok: true,
      output: "two",
      format: "text",
      usage: { input_tokens: 2, output_tokens: 2 },
    });
    expect(pass.asked[1]).toContain('- Guardrail "Rule A" failed: too vague');
    expect(pass.events.map((e) => [e.type, e.data.guardrail])).toEqual([
      ["guardrail_failed", "Rule A"],
      ["guardrail_passed", "Rule A"],
      ["guardrail_passed", "Rule B"],
    ]);
    // A failure with retries left is not the last word.
    expect(pass.events[0]?.data).toMatchObject({ retry: 1, max_retries: 1, final: false });

    const fail = await checked(t, ["one", "two"], ["FAIL: vague", "PASS", "FAIL: off topic"]);
    expect(fail.result).toEqual({
      ok: false,
      error: `Task 't' failed its guardrail after 1 retry: off topic (guardrail: "Rule B")`,
    });
    expect(fail.events.at(-1)?.data).toMatchObject({ retry: 2, max_retries: 1, final: true });
  });

  it("uses CrewAI's default of 3 retries", async () => {
    const { asked, result } = await checked(
      task({ guardrail: "R" }),
      ["a", "b", "c", "d", "e"],
      ["FAIL: no"],
    );
    expect(asked).toHaveLength(4);
    expect(result).toEqual({
      ok: false,
      error: `Task 't' failed its guardrail after 3 retries: no (guardrail: "R")`,
    });
  });
});

describe("loading output keys", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });
  const load = (taskExtra: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-outputs-"));
    dirs.push(dir);
    fs.mkdirSync(path.join(dir, "c"));
    fs.writeFileSync(
      path.join(dir, "c", "crew.yaml"),
      `agents:\n  a:\n    role: R\n    goal: G\n    backstory: B\ntasks:\n  t:\n    description: "On {topic}"\n    expected_output: E\n    agent: a\n${taskExtra}`,
    );
    return loadCrews(dir);
  };

  it("takes the keys without warnings; output_pydantic with a schema is output_json", () => {
    const c = load(
      `    output_pydantic:\n      type: object\n      properties: { a: { type: string } }\n    output_file: "out/{topic}-{date}.json"\n    guardrail: At most 5 words\n    guardrails: [Must mention x]\n    guardrail_max_retries: 2\n`,
    );
    expect(c.errors).toEqual([]);
    expect(c.warnings).toEqual([]);
    const t = c.crews.get("c")?.tasks[0];
    expect(t?.output_json).toEqual({ type: "object", properties: { a: { type: "string" } } });
    expect(t).not.toHaveProperty("output_pydantic");
    // An input used only in the file name is still asked for.
    expect(c.crews.get("c")?.inputs).toEqual(["topic", "date"]);
  });

  it.each([
    ["    output_pydantic: Report\n", "tasks.t.output_pydantic"],
    ["    output_json: Report\n", "tasks.t.output_json"],
  ])("loads %s, a class it cannot read, with a warning and the output unchecked", (extra, key) => {
    const c = load(extra);
    expect(c.errors).toEqual([]);
    expect(c.crews.get("c")?.tasks[0]).not.toHaveProperty("output_json");
    expect(c.warnings).toEqual([
      expect.objectContaining({
        key,
        message: expect.stringMatching(
          /names the Python class 'Report'.*the output is not checked/,
        ),
      }),
    ]);
  });

  it.each([
    ["    output_json: { type: nonsense }\n", "tasks.t.output_json", /not a usable JSON Schema/],
    ["    output_file: ../../etc/x\n", "tasks.t.output_file", /must not contain '..'/],
    ["    output_file: /tmp/x.md\n", "tasks.t.output_file", /absolute path/],
  ])("refuses %s", (extra, key, reason) => {
    const c = load(extra);
    expect(c.crews.size).toBe(0);
    expect(c.errors[0]?.key).toBe(key);
    expect(c.errors[0]?.reason).toMatch(reason);
  });
});
