import { describe, expect, it } from "vitest";
import {
  controlOf,
  enumValue,
  missingAnswers,
  ratingChoices,
} from "@/components/review/response-values";

// How a review's response schema becomes the form's controls, and what an approval still lacks.
describe("ratingChoices", () => {
  it("offers a small whole-number range as a row of choices", () => {
    expect(ratingChoices({ type: "integer", minimum: 1, maximum: 5 })).toEqual([1, 2, 3, 4, 5]);
    expect(ratingChoices({ type: ["integer", "null"], minimum: 0, maximum: 10 })).toHaveLength(11);
  });
  it("leaves wide, open or fractional ranges to a number box", () => {
    expect(ratingChoices({ type: "integer", minimum: 0, maximum: 11 })).toBeNull();
    expect(ratingChoices({ type: "integer", minimum: 1 })).toBeNull();
    expect(ratingChoices({ type: "number", minimum: 1, maximum: 5 })).toBeNull();
  });
});

describe("controlOf", () => {
  it("picks a select, a number box, a text area or a line", () => {
    expect(controlOf({ enum: ["a"] })).toBe("enum");
    expect(controlOf({ type: "number" })).toBe("number");
    expect(controlOf({ type: "string" })).toBe("textarea");
    expect(controlOf({ type: "string", maxLength: 120 })).toBe("text");
  });
  it("reads a select's text back as the enum's own value", () => {
    expect(enumValue({ enum: [1, "two"] }, "1")).toBe(1);
    expect(enumValue({ enum: [1] }, "")).toBeUndefined();
  });
});

describe("missingAnswers", () => {
  it("names the required answers left empty, by title", () => {
    const schema = {
      properties: { score: { title: "Score" }, note: {} },
      required: ["score", "note"],
    };
    expect(missingAnswers(schema, { note: "" })).toEqual(["Score", "note"]);
    expect(missingAnswers(schema, { score: 3, note: "ok" })).toEqual([]);
  });
});
