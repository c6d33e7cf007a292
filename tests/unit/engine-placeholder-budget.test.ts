import { describe, expect, it } from "vitest";
import { EXPANDED_MAX_CHARS, interpolate, PlaceholderBudgetError } from "@/lib/util/placeholders";
import { engineHarness } from "../support/engine-harness";

// A placeholder repeated over a large input multiplied it: 6,666 × `{a}` over a 75 KB input made
// a 512 M-character prompt. The expansion's size is now added up first and refused past budget.

const MiB = 1024 * 1024;
const repeated = "{a}".repeat(2000);
const kilobyte = "x".repeat(1024);

describe("interpolate's budget", () => {
  it("refuses 2,000 × {a} over 1 KB (2 MB) at a 1 MiB budget, naming the field and size", () => {
    const expand = () =>
      interpolate(repeated, { a: kilobyte }, { field: "Task 't' description", maxChars: MiB });
    expect(expand).toThrow(PlaceholderBudgetError);
    expect(expand).toThrow(
      "Task 't' description would be 2,048,000 characters with its {placeholders} filled in; at most 1,048,576",
    );
  });

  it("refuses past the default budget of 2 MiB", () => {
    expect(() => interpolate(repeated, { a: kilobyte.repeat(2) })).toThrow(
      `at most ${EXPANDED_MAX_CHARS.toLocaleString("en")}`,
    );
  });

  it("fills a text that lands exactly on its budget", () => {
    const out = interpolate("<{a}>", { a: "x".repeat(98) }, { maxChars: 100 });
    expect(out).toHaveLength(100);
    expect(() => interpolate("<{a}>", { a: "x".repeat(99) }, { maxChars: 100 })).toThrow(
      "would be 101 characters",
    );
  });

  it("counts only placeholders it fills", () => {
    expect(interpolate("{b}".repeat(50), { a: kilobyte }, { maxChars: 150 })).toBe(
      "{b}".repeat(50),
    );
  });
});

describe("a run whose description expands past the budget", () => {
  const h = engineHarness({
    big: `agents:
  writer:
    role: Writer
    goal: Write
    backstory: Brief.
    llm: offline
tasks:
  t:
    description: "${repeated}"
    expected_output: "Anything."
    agent: writer
`,
  });

  it("fails with a message naming the task's field and the size", async () => {
    const id = await h.kickoff("big", { a: "x".repeat(2048) });
    const row = await h.waitFor(id, (r) => r.status === "error");
    expect(row.error).toBe(
      "Task 't' description would be 4,096,000 characters with its {placeholders} filled in; at most 2,097,152 (repeat large inputs less).",
    );
    expect(row.tasks[0]?.status).toBe("error");
  });
});
