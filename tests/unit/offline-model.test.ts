import { generateText, stepCountIs, streamText, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createOfflineModel, OFFLINE_LABEL } from "@/lib/llm/offline-model";

const SYSTEM = "You are Tester. You check things carefully.\nYour personal goal is: test";
const TASK = "Summarise the release notes of version 2.";
const EXPECTED = "Three bullet points.";

const wordCountSchema = z.object({ text: z.string().min(1) });

function makeTools(calls: unknown[]) {
  return {
    word_count: tool({
      description: "Counts words",
      inputSchema: wordCountSchema,
      execute: async ({ text }) => {
        calls.push(text);
        return { words: text.split(/\s+/).filter(Boolean).length, marker: "wc-result-7f3a" };
      },
    }),
  };
}

function prompt(extra = "") {
  return `# Task\n${TASK}\n\n# Expected output\n${EXPECTED}${extra}`;
}

async function run({ withTools = false, extra = "" } = {}) {
  const calls: unknown[] = [];
  const result = await generateText({
    model: createOfflineModel({ delayMs: 0 }),
    system: SYSTEM,
    prompt: prompt(extra),
    ...(withTools ? { tools: makeTools(calls) } : {}),
    stopWhen: stepCountIs(5),
  });
  return { result, calls };
}

describe("offline model through generateText", () => {
  it.each([false, true])("is deterministic (tools: %s)", async (withTools) => {
    const a = await run({ withTools });
    const b = await run({ withTools });
    expect(a.result.text).toBe(b.result.text);
    expect(a.result.steps.length).toBe(b.result.steps.length);
    expect(a.result.reasoningText).toBe(b.result.reasoningText);
  });

  it("without tools: one step with reasoning, then the answer", async () => {
    const { result } = await run();
    expect(result.steps).toHaveLength(1);
    expect(result.finishReason).toBe("stop");
    expect(result.steps[0]?.reasoningText).toMatch(/Tester/);
    expect(result.toolCalls).toEqual([]);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
  });

  it("the answer names the task, the expected output, the role and that it is offline", async () => {
    const { result } = await run();
    expect(result.text).toContain(TASK);
    expect(result.text).toContain(EXPECTED);
    expect(result.text).toContain("Tester");
    expect(result.text).toContain(OFFLINE_LABEL);
    expect(result.text.toLowerCase()).toContain("offline model");
    expect(result.text.split("\n")[0]).toBe(`## ${TASK}`);
  });

  it("with tools: first a tool call that passes the schema, then an answer using its result", async () => {
    const { result, calls } = await run({ withTools: true });
    expect(result.steps.length).toBeGreaterThanOrEqual(2);
    const [first, ...rest] = result.steps;
    expect(first?.finishReason).toBe("tool-calls");
    expect(first?.reasoningText).toMatch(/word_count/);
    expect(first?.toolCalls).toHaveLength(1);
    const call = first?.toolCalls[0];
    expect(call?.toolName).toBe("word_count");
    expect(call?.invalid).toBeFalsy();
    expect(wordCountSchema.safeParse(call?.input).success).toBe(true);
    expect(first?.toolResults).toHaveLength(1);
    // the tool really ran, on text taken from the task
    expect(calls).toHaveLength(1);
    expect(String(calls[0])).toContain(TASK);
    // the last step answers, quoting the tool's result
    const last = rest.at(-1);
    expect(last?.toolCalls).toEqual([]);
    expect(last?.reasoningText).toBeTruthy();
    expect(result.finishReason).toBe("stop");
    expect(result.text).toContain("word_count");
    expect(result.text).toContain("wc-result-7f3a");
    expect(result.text).toContain(TASK);
    expect(result.text).toContain(OFFLINE_LABEL);
  });

  it("fills required numeric, boolean and enum arguments so the call validates", async () => {
    const schema = z.object({
      n: z.number(),
      i: z.number().int(),
      b: z.boolean(),
      mode: z.enum(["fast", "slow"]),
      s: z.string(),
      optional: z.string().optional(),
    });
    const seen: unknown[] = [];
    const result = await generateText({
      model: createOfflineModel(),
      system: SYSTEM,
      prompt: prompt(),
      tools: {
        probe: tool({
          description: "probe",
          inputSchema: schema,
          execute: async (input) => {
            seen.push(input);
            return "ok";
          },
        }),
      },
      stopWhen: stepCountIs(5),
    });
    expect(seen).toHaveLength(1);
    expect(schema.parse(seen[0])).toEqual(seen[0]);
    expect(seen[0]).not.toHaveProperty("optional");
    expect(result.text).toContain("probe");
  });

  it("calls each tool once, then answers", async () => {
    const used: string[] = [];
    const mk = (name: string) =>
      tool({
        description: name,
        inputSchema: z.object({}),
        execute: async () => {
          used.push(name);
          return { from: name };
        },
      });
    const result = await generateText({
      model: createOfflineModel(),
      system: SYSTEM,
      prompt: prompt(),
      tools: { alpha: mk("alpha"), beta: mk("beta") },
      stopWhen: stepCountIs(5),
    });
    expect(used).toEqual(["alpha", "beta"]);
    expect(result.steps).toHaveLength(3);
    expect(result.text).toContain('- alpha: {"from":"alpha"}');
    expect(result.text).toContain('- beta: {"from":"beta"}');
  });

  it("includes the reviewer's revision feedback when present", async () => {
    const feedback = "Shorter please, and cite the changelog.";
    const { result } = await run({
      extra: `\n\n# Previous attempt\nAn old draft.\n\n# Revise it: reviewer feedback\n${feedback}`,
    });
    expect(result.text).toContain(feedback);
    expect(result.text).toContain("Revised for this feedback");
    // each heading ends the section before it: the old draft is not taken as expected output
    expect(result.text).toContain(`**Delivers**\n\n${EXPECTED}\n\n`);
    expect(result.text).not.toContain("An old draft");
  });

  it("has no revision section without feedback", async () => {
    const { result } = await run();
    expect(result.text).not.toContain("Revised for this feedback");
  });

  it("summarises context and reviewer notes", async () => {
    const { result } = await run({
      extra:
        "\n\n# Context\n### Research (research)\nlots of findings\n\n# Reviewer feedback\n- on research: good",
    });
    expect(result.text).toContain("- Research (research)");
    expect(result.text).not.toContain("lots of findings");
    expect(result.text).toContain("- on research: good");
  });

  it("streams the same answer", async () => {
    const stream = streamText({
      model: createOfflineModel(),
      system: SYSTEM,
      prompt: prompt(),
      stopWhen: stepCountIs(5),
    });
    const { result } = await run();
    expect(await stream.text).toBe(result.text);
  });

  it("waits delayMs per step and honours an abort", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = generateText({
      model: createOfflineModel({ delayMs: 120_000 }),
      system: SYSTEM,
      prompt: prompt(),
      maxRetries: 0,
      abortSignal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error("stop now")), 50);
    await expect(pending).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(60_000); // not the two minutes of the delay
  });
});
