import path from "node:path";
import { describe, expect, it } from "vitest";
import { coerceInput } from "@/lib/crew/coerce-input";
import { kickoffState } from "@/lib/crew/flow-state";
import { loadCrews } from "@/lib/crew/load-crews";
import type { FlowPlan } from "@/lib/crew/schema";
import { AppError } from "@/lib/errors";
import { inputsFromMessage } from "@/lib/protocols/inputs";

// JSON given as text inside a body (a json-type input written as a string, a chat message's
// text) gets the body's own checks: nesting, NUL, lone surrogates. Else a document nested
// 100,000 deep passed, and later recursive walks (schema checks, serialization) overflowed: 500.

const deep = (n: number) => `{"a":${"[".repeat(n)}${"]".repeat(n)}}`;
const hostile = [
  ["nested 100,000 deep", deep(100_000), /more than 64 levels deep/],
  ["holding NUL", '{"a":"x\\u0000y"}', /NUL/],
  ["holding a lone surrogate", '{"a":"\\ud800"}', /lone UTF-16 surrogate/],
] as const;

const json = {
  name: "data",
  type: "json",
  title: "Data",
  description: null,
  required: true,
  declared: true,
} as const;

function thrown(f: () => unknown): AppError {
  try {
    f();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error("nothing was thrown");
}

describe("JSON text inside a body", () => {
  it.each(hostile)("a json input %s is invalid, naming why", (_, text, why) => {
    const res = coerceInput(json, text);
    expect(res.ok).toBe(false);
    expect(res.ok ? "" : res.message).toMatch(why);
    expect(coerceInput(json, deep(60))).toEqual({ ok: true, value: deep(60) });
  });

  it.each(hostile)(
    "a flow's typed state from a json input %s is a 422 naming it",
    (_, text, why) => {
      const plan: FlowPlan = {
        name: "F",
        file: "flow.yaml",
        state: { kind: "json_schema", schema: { type: "object" }, defaults: {} },
        max_method_calls: 10,
        methods: [],
        crews: {},
      };
      const err = thrown(() =>
        kickoffState(plan, { data: text }, { data: text }, new Set(["data"])),
      );
      expect(err.status).toBe(422);
      expect(err.message).toMatch(why);
      expect(err.details).toEqual({
        errors: [{ path: "inputs.data", message: expect.any(String) }],
      });
    },
  );

  it.each(hostile)("a chat message's JSON text %s is a 422 naming the text", (_, text, why) => {
    const review = loadCrews(path.resolve("tests/fixtures/crews")).crews.get("review");
    if (!review) throw new Error("the review fixture is missing");
    const err = thrown(() => inputsFromMessage(review, { text }));
    expect(err.status).toBe(422);
    expect(err.message).toMatch(why);
    expect(err.details).toEqual({
      errors: [{ path: "message.text", message: expect.any(String) }],
    });
    // Text that is not JSON at all still fills the crew's one input.
    expect(inputsFromMessage(review, { text: "{not json" })).toEqual({ subject: "{not json" });
  });
});
