import { describe, expect, it } from "vitest";
import {
  fromNames,
  initialValues,
  kickoffInputs,
  refusalByField,
} from "@/components/crews/kickoff-values";
import { ApiError } from "@/lib/api/client";
import type { InputSchema } from "@/lib/crew/input-schema";

// The kickoff form: its first values, what it sends, and where the server's refusal lands.
const schema: InputSchema = {
  type: "object",
  properties: {
    topic: { type: "string", title: "Topic", "x-control": "text", default: "AI" },
    count: { type: "number", title: "Count", "x-control": "number" },
    deep: { type: "boolean", title: "Deep", "x-control": "checkbox", default: true },
    config: { type: "string", title: "Config", "x-control": "json", default: '{"a":1}' },
  },
  required: ["topic"],
  "x-order": ["topic", "count", "deep", "config"],
};

describe("the kickoff form's values", () => {
  it("makes a text field of each name when the crew has no schema", () => {
    expect(fromNames(["a"])).toEqual({
      type: "object",
      properties: { a: { type: "string", title: "a", "x-control": "text" } },
      required: ["a"],
      "x-order": ["a"],
    });
  });

  it("starts from the defaults, or from a re-run's inputs", () => {
    expect(initialValues(schema)).toEqual({
      topic: "AI",
      count: "",
      deep: true,
      config: '{"a":1}',
    });
    // A re-run's JSON input is an object: shown indented.
    expect(
      initialValues(schema, { topic: "news", count: 3, deep: "yes", config: { a: 1 } }),
    ).toEqual({
      topic: "news",
      count: "3",
      deep: false,
      config: '{\n  "a": 1\n}',
    });
    expect(initialValues(schema, { topic: null }).topic).toBe("");
  });

  it("sends each value as its control reads it, leaving empty ones out", () => {
    const values = { topic: "x", count: "4", deep: false, config: "[1]" };
    expect(kickoffInputs(schema, values, false)).toEqual({
      inputs: { topic: "x", count: 4, deep: false, config: "[1]" },
      problems: {},
    });
    const empty = { topic: " ", count: "", deep: true, config: "" };
    expect(kickoffInputs(schema, empty, false).inputs).toEqual({ deep: true });
    // On a re-run, a cleared field is sent empty, or the origin's value would stay.
    expect(kickoffInputs(schema, empty, true).inputs).toEqual({
      topic: "",
      count: "",
      deep: true,
      config: "",
    });
  });

  it("finds JSON that does not parse before sending", () => {
    const { inputs, problems } = kickoffInputs(schema, { topic: "x", config: "{" }, false);
    expect(inputs).toEqual({ topic: "x" });
    expect(Object.keys(problems)).toEqual(["config"]);
  });

  it("puts the server's problems on their fields, and names missing ones", () => {
    const err = new ApiError({
      type: "about:blank",
      title: "Invalid",
      status: 422,
      detail: "bad",
      errors: [
        { path: "inputs.count", message: "count must be a number" },
        { path: "other", message: "ignored" },
      ],
      missing_inputs: ["topic", "count", "unknown"],
    });
    expect(refusalByField(err, schema)).toEqual({
      count: "count must be a number",
      topic: "Topic is required.",
      unknown: "unknown is required.",
    });
    expect(refusalByField(new Error("offline"), schema)).toEqual({});
  });
});
