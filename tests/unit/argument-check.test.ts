import { describe, expect, it } from "vitest";
import { argumentProblems } from "@/components/review/argument-check";
import { valueErrors } from "@/lib/outputs/structured-output";

// The browser's check of edited tool-call arguments says, in sentences, what the server's would
// refuse — without eval (the dashboard's CSP forbids it).
const schema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  properties: {
    text: { type: "string", maxLength: 10 },
    limit: { type: "integer", minimum: 1 },
    filter: { type: "object", properties: { team: { type: "string" } }, required: ["team"] },
  },
  required: ["text"],
  additionalProperties: false,
};

describe("argumentProblems", () => {
  it("names a missing parameter, an unknown one and a value out of range", () => {
    expect(argumentProblems({ txt: "a", limit: 0, filter: {} }, schema)).toEqual([
      "“text” is required.",
      "“limit”: 0 is less than 1.",
      "“filter.team” is required.",
      "“txt” is not a parameter of this tool.",
    ]);
  });

  it("agrees with the server's check on what passes and what does not", () => {
    const cases = [
      { text: "short" },
      { text: "far too long for it" },
      { text: "ok", limit: 2.5 },
      { text: "ok", filter: { team: "legal" } },
      { text: 3 },
      {},
    ];
    for (const value of cases)
      expect(argumentProblems(value, schema).length > 0, JSON.stringify(value)).toBe(
        valueErrors(value, schema).length > 0,
      );
  });

  it("leaves a schema it cannot read to the server", () => {
    const dangling = { type: "object", properties: { a: { $ref: "#/definitions/nowhere" } } };
    expect(argumentProblems({ a: 1 }, dangling)).toEqual([]);
  });
});
