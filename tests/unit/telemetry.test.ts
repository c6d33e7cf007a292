import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { TaskDef } from "@/lib/crew/schema";
import type { Queryable } from "@/lib/db/types";
import type { ExecutionRow } from "@/lib/run-model/types";
import { observedModel, tracedTools } from "@/lib/telemetry/gen-ai";
import { executionSpanId, taskSpanId, traceIdOf } from "@/lib/telemetry/ids";
import { startTelemetry, stopTelemetry } from "@/lib/telemetry/start";
import { tracing } from "@/lib/telemetry/state";
import { traceChange, tracedAttempt } from "@/lib/telemetry/trace-execution";
import { startOtlpReceiver } from "../support/otlp-receiver";

// The tracing pieces with the real SDK and exporter, sending to a loopback OTLP receiver.

const usage = {
  inputTokens: { total: 11, noCache: 11, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 7, text: 7, reasoning: 0 },
};
// Calls the `lookup` tool once, then answers.
const model = () => {
  let call = 0;
  return new MockLanguageModelV3({
    provider: "openai",
    modelId: "gpt-4o-mini",
    doGenerate: async () =>
      call++ === 0
        ? {
            content: [
              {
                type: "tool-call",
                toolCallId: "call-1",
                toolName: "lookup",
                input: JSON.stringify({ q: "secret question" }),
              },
            ],
            finishReason: { unified: "tool-calls", raw: "tool_calls" },
            usage,
            warnings: [],
          }
        : {
            content: [{ type: "text", text: "secret answer" }],
            finishReason: { unified: "stop", raw: "stop" },
            usage,
            warnings: [],
          },
  });
};

const ID = "0b6a2c4e-1f3d-4a5b-9c8d-7e6f5a4b3c2d";
const row = (over: Partial<ExecutionRow> = {}) =>
  ({
    id: ID,
    crew: "unit-crew",
    status: "running",
    created_at: new Date("2026-01-01T00:00:00Z"),
    started_at: new Date("2026-01-01T00:00:01Z"),
    finished_at: null,
    error: null,
    deployment_id: null,
    token_usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
    tasks: [
      {
        task_id: "research",
        name: "Research",
        agent: "researcher",
        human_input: false,
        status: "running",
        attempts: 1,
        output: null,
        started_at: "2026-01-01T00:00:01Z",
        finished_at: null,
        execution_time: null,
      },
    ],
    open_reviews: [],
    ...over,
  }) as ExecutionRow;

let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
  process.env.OTEL_SERVICE_NAME = "crewdeck-unit";
  await startTelemetry(() => {});
});
afterAll(async () => {
  await stopTelemetry();
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete process.env.OTEL_SERVICE_NAME;
  await receiver.close();
});

async function runAttempt(capture: boolean) {
  const t = tracing();
  if (!t) throw new Error("tracing did not start");
  t.captureContent = capture;
  const task = { id: "research", agent: "researcher" } as TaskDef;
  const attempt = tracedAttempt(async () => {
    const tools = tracedTools({
      lookup: tool({
        inputSchema: z.object({ q: z.string() }),
        execute: async ({ q }) => `result for ${q}`,
      }),
    });
    await generateText({
      model: observedModel(model(), {
        crew: "unit-crew",
        modelId: "openai/gpt-4o-mini",
        provider: "openai",
        model: "gpt-4o-mini",
      }),
      prompt: "secret prompt",
      tools,
      stopWhen: stepCountIs(3),
    });
    return row();
  });
  await attempt({ row: row(), index: 0, task });
  await t.flush();
}

describe("traces", () => {
  it("an attempt, its model calls and its tool call, under the task's derived span id", async () => {
    await runAttempt(false);
    const spans = receiver.spans;
    const agent = spans.find((s) => s.name === "invoke_agent researcher");
    expect(agent).toMatchObject({
      traceId: traceIdOf(ID),
      parentSpanId: taskSpanId(ID, "research"),
      attributes: { "gen_ai.operation.name": "invoke_agent", "crewdeck.task.id": "research" },
    });
    expect(agent?.resource["service.name"]).toBe("crewdeck-unit");
    const chats = spans.filter((s) => s.name === "chat gpt-4o-mini");
    expect(chats).toHaveLength(2);
    for (const c of chats) {
      expect(c.parentSpanId).toBe(agent?.spanId);
      expect(c.kind).toBe(3); // OTLP's SPAN_KIND_CLIENT
      expect(c.attributes).toMatchObject({
        "gen_ai.operation.name": "chat",
        "gen_ai.system": "openai",
        "gen_ai.request.model": "gpt-4o-mini",
        "gen_ai.usage.input_tokens": 11,
        "gen_ai.usage.output_tokens": 7,
      });
    }
    const toolSpan = spans.find((s) => s.name === "execute_tool lookup");
    expect(toolSpan).toMatchObject({
      parentSpanId: agent?.spanId,
      attributes: { "gen_ai.tool.name": "lookup", "gen_ai.tool.call.id": "call-1" },
    });
    // Content is off by default.
    expect(JSON.stringify(spans)).not.toContain("secret");
  });

  it("with the opt-in, prompts, completions and tool arguments and results are in the spans", async () => {
    receiver.spans.length = 0;
    await runAttempt(true);
    const chat = receiver.spans.find((s) => s.name === "chat gpt-4o-mini");
    expect(String(chat?.attributes["gen_ai.input.messages"])).toContain("secret prompt");
    const toolSpan = receiver.spans.find((s) => s.name === "execute_tool lookup");
    expect(toolSpan?.attributes["gen_ai.tool.call.arguments"]).toContain("secret question");
    expect(toolSpan?.attributes["gen_ai.tool.call.result"]).toContain("result for secret question");
    expect(JSON.stringify(receiver.spans)).toContain("secret answer");
  });

  it("the execution's end writes its span and its tasks' spans with the derived ids", async () => {
    receiver.spans.length = 0;
    const q: Queryable = {
      query: async () =>
        ({
          rows: [{ task_id: "research", first: new Date("2026-01-01T00:00:01Z") }],
          rowCount: 1,
        }) as never,
    };
    const ended = row({
      status: "completed",
      finished_at: new Date("2026-01-01T00:00:09Z"),
      tasks: [
        { ...row().tasks[0], status: "completed", finished_at: "2026-01-01T00:00:08Z" } as never,
      ],
    });
    await traceChange(q, row(), ended);
    await traceChange(q, ended, ended); // a later change of an ended run writes nothing more
    await tracing()?.flush();
    const root = receiver.spans.filter((s) => s.name === "crewdeck.execution unit-crew");
    expect(root).toHaveLength(1);
    expect(root[0]).toMatchObject({
      traceId: traceIdOf(ID),
      spanId: executionSpanId(ID),
      parentSpanId: "",
      attributes: { "crewdeck.execution.status": "completed" },
    });
    const task = receiver.spans.find((s) => s.name === "crewdeck.task research");
    expect(task).toMatchObject({
      traceId: traceIdOf(ID),
      spanId: taskSpanId(ID, "research"),
      parentSpanId: executionSpanId(ID),
    });
    expect(BigInt(task?.endTimeUnixNano ?? 0) - BigInt(task?.startTimeUnixNano ?? 0)).toBe(
      7_000_000_000n,
    );
  });
});
