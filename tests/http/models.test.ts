import { describe, expect, inject, it } from "vitest";
import { crewClient } from "../support/api";
import { TEST_CREW_TOKEN } from "../support/harness";

// Real model providers through the OpenAI-compatible wire format (a loopback server here).
const baseUrl = inject("baseUrl");

describe("openai/<model> via OPENAI_BASE_URL", () => {
  it("runs the tool loop: tool call, tool result, answer", async () => {
    const client = crewClient(baseUrl, "remote-model", TEST_CREW_TOKEN);
    const id = await client.start({ thing: "cats" });
    const done = await client.waitFor(id, (s) => s.status === "completed" || s.status === "error");
    expect(done.status, done.error).toBe("completed");
    expect(done.result).toContain("Final answer from tool-then-answer");
    expect(done.result).toContain('"words":3');
    const events = (await client.events(id)).json.events as {
      type: string;
      data: Record<string, unknown>;
    }[];
    const steps = events.filter((e) =>
      ["thought", "tool_call", "tool_result", "answer"].includes(e.type),
    );
    expect(steps.map((e) => e.type)).toEqual(["thought", "tool_call", "tool_result", "answer"]);
    expect(steps[1]?.data).toMatchObject({
      tool: "word_count",
      tool_input: { text: "one two three" },
    });
    expect(steps[2]?.data).toMatchObject({ tool: "word_count", result: { words: 3 } });
  });

  it("a model that keeps failing ends the execution in error with a readable message", async () => {
    const client = crewClient(baseUrl, "failing-model", TEST_CREW_TOKEN);
    const id = await client.start({});
    const done = await client.waitFor(id, (s) => s.status === "error", 30_000);
    expect(done.state).toBe("FAILED");
    expect(done.error).toMatch(/openai\/always-500/);
    expect(done.error).toMatch(/HTTP 500/);
    expect(done.error).toMatch(/after 2 attempts/);
    expect(done.tasks[0]).toMatchObject({ status: "error" });
  });

  it("a task over its timeout ends in error saying so", async () => {
    const client = crewClient(baseUrl, "hanging-model", TEST_CREW_TOKEN);
    const id = await client.start({});
    const done = await client.waitFor(id, (s) => s.status === "error", 20_000);
    expect(done.error).toBe("Task 'wait' timed out after 1 s.");
  });
});
