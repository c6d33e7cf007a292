import { describe, expect, it } from "vitest";
import {
  editedArguments,
  editorRows,
  parseArguments,
  parseDraft,
} from "@/components/review/call-arguments";

// A tool call's arguments as a reviewer edits them: parsed, checked, sent only when changed.
const schema = {
  type: "object",
  properties: { q: { type: "string" } },
  required: ["q"],
};

describe("parseArguments", () => {
  it("takes an object the tool accepts", () => {
    expect(parseArguments('{"q":"x"}', schema)).toEqual({ ok: true, value: { q: "x" } });
  });
  it("says where the text stops being JSON", () => {
    const parsed = parseArguments('{"q":', schema);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toMatch(/^Not valid JSON/);
  });
  it.each(["[1]", "null", "3", '"q"'])("refuses %s: not an object", (text) => {
    expect(parseArguments(text, schema)).toEqual({
      ok: false,
      error: 'The arguments are a JSON object: { "name": value, … }.',
    });
  });
  it("refuses what the tool does not take", () => {
    const parsed = parseArguments("{}", schema);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error.length).toBeGreaterThan(0);
  });
});

describe("parseDraft", () => {
  it("is fine with nothing while not editing", () => {
    expect(parseDraft(null, schema)).toEqual({ ok: true, value: undefined });
  });
  it("parses a draft", () => {
    expect(parseDraft('{"q":"y"}', schema)).toEqual({ ok: true, value: { q: "y" } });
  });
});

describe("editedArguments", () => {
  it("sends changed arguments", () => {
    expect(editedArguments({ ok: true, value: { q: "b" } }, { q: "a" })).toEqual({ q: "b" });
  });
  it("sends nothing when unchanged, not editing, or invalid", () => {
    expect(editedArguments({ ok: true, value: { q: "a" } }, { q: "a" })).toBeUndefined();
    expect(editedArguments({ ok: true, value: undefined }, { q: "a" })).toBeUndefined();
    expect(editedArguments({ ok: false, error: "no" }, { q: "a" })).toBeUndefined();
  });
});

describe("editorRows", () => {
  it("grows with the text between 4 and 16 rows", () => {
    expect(editorRows("{}")).toBe(4);
    expect(editorRows("a\nb\nc\nd")).toBe(5);
    expect(editorRows("\n".repeat(30))).toBe(16);
  });
});
