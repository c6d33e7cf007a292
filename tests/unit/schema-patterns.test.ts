import { describe, expect, it } from "vitest";
import { loadCrews } from "@/lib/crew/load-crews";
import {
  COMPILED_MAX,
  compiledSchemaCount,
  parseStructured,
  schemaError,
  valueErrors,
} from "@/lib/outputs/structured-output";
import { crewsDirMaker } from "../support/crews-dir";

// JSON Schema `pattern` and `patternProperties` ran on the backtracking RegExp, over values a
// caller sends (flow state, a review response, edited arguments or output): the pattern below
// took 2.6 s over 27 characters and doubles with each one more. They run on RE2 now.

const REDOS = "^([a-zA-Z0-9]+\\s?)*$";
const hostile = `${"a".repeat(40)}!`;
const crewsDir = crewsDirMaker("schema-patterns");

describe("patterns in JSON Schemas run in linear time", () => {
  it("refuses 40 characters and '!' against a catastrophic pattern, at once", () => {
    const schema = { type: "object", properties: { name: { type: "string", pattern: REDOS } } };
    expect(valueErrors({ name: hostile }, schema)).toEqual([`/name must match pattern "${REDOS}"`]);
    expect(valueErrors({ name: "plain words here" }, schema)).toEqual([]);
  });

  it("reads patternProperties' names on RE2 as well", () => {
    const schema = {
      type: "object",
      patternProperties: { [REDOS]: { type: "number" } },
      additionalProperties: false,
    };
    expect(valueErrors({ [hostile]: 1 }, schema)).toEqual([
      "/ must NOT have additional properties ('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!')",
    ]);
    expect(valueErrors({ ok: 1 }, schema)).toEqual([]);
  });

  it("fails a value longer than a pattern reads, saying so", () => {
    const schema = { type: "string", pattern: "^a+$" };
    expect(valueErrors("a".repeat(100_001), schema)).toEqual([
      "a value of 100,001 characters is longer than the 100,000 a pattern checks",
    ]);
    expect(valueErrors("a".repeat(100_000), schema)).toEqual([]);
    const answer = parseStructured(JSON.stringify("a".repeat(100_001)), schema);
    expect(answer.ok).toBe(false);
  });

  it("shares one budget of characters between the patterns of a check", () => {
    const schema = {
      type: "array",
      items: { type: "string", allOf: [{ pattern: "^a+$" }, { pattern: "a$" }] },
    };
    // 10 items of 100,000 characters, each read by two patterns: 2,000,000 characters.
    expect(valueErrors(Array(10).fill("a".repeat(100_000)), schema)).toEqual([
      "the patterns would read more than 500,000 characters of this value",
    ]);
    expect(valueErrors(Array(2).fill("a".repeat(100_000)), schema)).toEqual([]);
  });

  it("leaves out a pattern RE2 cannot run and checks the rest", () => {
    const schema = { type: "string", maxLength: 5, pattern: "^(?=.*\\d)" };
    expect(schemaError(schema)).toBeUndefined();
    expect(valueErrors("abc", schema)).toEqual([]); // the lookahead is not enforced
    expect(valueErrors("abcdef", schema)).toEqual(["/ must NOT have more than 5 characters"]);
  });

  it("keeps validators for at most COMPILED_MAX schemas", () => {
    for (let i = 0; i <= COMPILED_MAX + 20; i++) valueErrors("x", { type: "string", maxLength: i });
    expect(compiledSchemaCount()).toBe(COMPILED_MAX);
  });
});

describe("a crew whose schema has a pattern RE2 cannot run", () => {
  it("loads, with a warning naming the file, the field and the pattern", () => {
    const yaml = `
agents:
  a: { role: R, goal: G, backstory: B }
tasks:
  t:
    description: D
    expected_output: E
    agent: a
    output_json:
      type: object
      properties:
        code: { type: string, pattern: "^(?=.*[0-9])[a-z0-9]+$" }
        "pattern": { type: string, pattern: "^[a-z]+$" }
`;
    const catalog = loadCrews(crewsDir({ "c/crew.yaml": yaml }));
    expect(catalog.errors).toEqual([]);
    expect(catalog.crews.has("c")).toBe(true);
    expect(catalog.warnings).toEqual([
      expect.objectContaining({
        slug: "c",
        file: "c/crew.yaml",
        key: "tasks.t.output_json",
        message:
          "the pattern at /properties/code/pattern uses a lookahead ((?=…), which RE2, the linear-time engine patterns run on, does not support: it is not checked",
      }),
    ]);
  });
});

describe("a flow whose state schema has a pattern RE2 cannot run", () => {
  it("loads, with a warning naming the file and the state's schema", () => {
    const yaml = `
schema: crewai.flow/v1
name: PatternFlow
state:
  type: json_schema
  json_schema:
    type: object
    properties:
      ticket: { type: string, pattern: "^(\\\\w+)-\\\\1$" }
methods:
  start:
    start: true
    do: { call: expression, expr: "state.ticket" }
`;
    const catalog = loadCrews(crewsDir({ "f/flow.yaml": yaml }));
    expect(catalog.errors).toEqual([]);
    expect(catalog.crews.has("f")).toBe(true);
    expect(catalog.warnings).toEqual([
      expect.objectContaining({
        file: "f/flow.yaml",
        key: "state.json_schema",
        message:
          "the pattern at /properties/ticket/pattern uses a backreference (\\1), which RE2, the linear-time engine patterns run on, does not support: it is not checked",
      }),
    ]);
  });
});
