import { describe, expect, it } from "vitest";
import {
  findPlaceholders,
  type InputValue,
  interpolate,
  missingInputs,
} from "@/lib/util/placeholders";

describe("findPlaceholders", () => {
  it.each([
    { name: "no texts", texts: [], want: [] },
    { name: "no braces", texts: ["plain text"], want: [] },
    { name: "one placeholder", texts: ["Research {topic}."], want: ["topic"] },
    {
      name: "order of first appearance within a text",
      texts: ["{b} then {a} then {c}"],
      want: ["b", "a", "c"],
    },
    {
      name: "order of first appearance across texts, each once",
      texts: ["{topic} for {audience}", "more on {topic}", "{length} words for {audience}"],
      want: ["topic", "audience", "length"],
    },
    {
      name: "underscores, digits and hyphens after the first character",
      texts: ["{_private} {target-audience} {topic_2} {A1-b_c}"],
      want: ["_private", "target-audience", "topic_2", "A1-b_c"],
    },
    {
      name: "JSON objects are not placeholders",
      texts: ['Reply as {"a": 1} or {"topic": "x"}'],
      want: [],
    },
    { name: "empty and blank braces", texts: ["{} and { } and {  }"], want: [] },
    { name: "names may not start with a digit", texts: ["{1x} {1} {2nd}"], want: [] },
    { name: "names may not start with a hyphen", texts: ["{-x}"], want: [] },
    { name: "inner spaces are not placeholders", texts: ["{ topic } {to pic}"], want: [] },
    {
      name: "other punctuation inside braces is not a placeholder",
      texts: ["{a.b} {a:b} {a/b} {$x}"],
      want: [],
    },
    {
      name: "a placeholder inside JSON-ish text is still found",
      texts: ['{"q": "{topic}"}'],
      want: ["topic"],
    },
    { name: "doubled braces still hold a placeholder", texts: ["{{topic}}"], want: ["topic"] },
    { name: "case matters", texts: ["{Topic} {topic}"], want: ["Topic", "topic"] },
  ])("$name", ({ texts, want }) => {
    expect(findPlaceholders(texts)).toEqual(want);
  });

  it("accepts any iterable, e.g. a generator", () => {
    function* texts() {
      yield "{x}";
      yield "{y} {x}";
    }
    expect(findPlaceholders(texts())).toEqual(["x", "y"]);
  });

  it("gives the same answer when called again (no regex state leaks)", () => {
    const texts = ["{a} {b}", "{c}"];
    expect(findPlaceholders(texts)).toEqual(["a", "b", "c"]);
    expect(findPlaceholders(texts)).toEqual(["a", "b", "c"]);
  });
});

describe("interpolate", () => {
  it.each<{ name: string; text: string; inputs: Record<string, InputValue>; want: string }>([
    {
      name: "replaces known names",
      text: "Research {topic} for {audience}.",
      inputs: { topic: "AI", audience: "CTOs" },
      want: "Research AI for CTOs.",
    },
    {
      name: "replaces every occurrence",
      text: "{x}-{x}-{x}",
      inputs: { x: "a" },
      want: "a-a-a",
    },
    {
      name: "leaves unknown placeholders alone",
      text: "{topic} and {unknown}",
      inputs: { topic: "AI" },
      want: "AI and {unknown}",
    },
    {
      name: "leaves JSON and other braces alone",
      text: 'Reply {"a": 1} { } {1x} {} about {topic}',
      inputs: { topic: "AI", a: "nope", "1x": "nope" },
      want: 'Reply {"a": 1} { } {1x} {} about AI',
    },
    {
      name: "stringifies numbers",
      text: "At most {words} words, {ratio} ratio",
      inputs: { words: 500, ratio: 0.5 },
      want: "At most 500 words, 0.5 ratio",
    },
    {
      name: "stringifies zero",
      text: "count={n}",
      inputs: { n: 0 },
      want: "count=0",
    },
    {
      name: "stringifies booleans",
      text: "formal={formal}, draft={draft}",
      inputs: { formal: true, draft: false },
      want: "formal=true, draft=false",
    },
    {
      name: "an empty string replaces the placeholder",
      text: "[{x}]",
      inputs: { x: "" },
      want: "[]",
    },
    {
      name: "hyphenated names",
      text: "for {target-audience}",
      inputs: { "target-audience": "devs" },
      want: "for devs",
    },
    {
      name: "values are inserted literally (no $ replacement patterns)",
      text: "price: {p}",
      inputs: { p: "$& $1 $$ $'" },
      want: "price: $& $1 $$ $'",
    },
    {
      name: "values are not interpolated again",
      text: "{a}",
      inputs: { a: "{b}", b: "B" },
      want: "{b}",
    },
    {
      name: "inherited object properties are not inputs",
      text: "{toString} {constructor} {__proto__}",
      inputs: {},
      want: "{toString} {constructor} {__proto__}",
    },
  ])("$name", ({ text, inputs, want }) => {
    expect(interpolate(text, inputs)).toBe(want);
  });
});

describe("missingInputs", () => {
  it.each([
    { name: "all given", required: ["a", "b"], given: { a: "x", b: "y" }, want: [] },
    { name: "nothing required", required: [], given: { a: "x" }, want: [] },
    { name: "absent", required: ["a", "b"], given: { a: "x" }, want: ["b"] },
    { name: "undefined", required: ["a"], given: { a: undefined }, want: ["a"] },
    { name: "null", required: ["a"], given: { a: null }, want: ["a"] },
    { name: "empty string", required: ["a"], given: { a: "" }, want: ["a"] },
    { name: "zero is given", required: ["a"], given: { a: 0 }, want: [] },
    { name: "false is given", required: ["a"], given: { a: false }, want: [] },
    { name: "a space is given", required: ["a"], given: { a: " " }, want: [] },
    {
      name: "keeps the required order",
      required: ["c", "a", "b"],
      given: { b: "ok" },
      want: ["c", "a"],
    },
    {
      name: "extra inputs are ignored",
      required: ["a"],
      given: { a: "x", extra: "" },
      want: [],
    },
    {
      name: "inherited properties do not count as given",
      required: ["toString", "constructor"],
      given: {},
      want: ["toString", "constructor"],
    },
  ])("$name", ({ required, given, want }) => {
    expect(missingInputs(required, given as Record<string, unknown>)).toEqual(want);
  });
});
