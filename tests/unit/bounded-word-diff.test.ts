import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import AttemptDiff from "@/components/run/attempt-diff";
import {
  boundedWordDiff,
  WORD_DIFF_MAX_EDITS,
  WORD_DIFF_MAX_WORDS,
} from "@/lib/util/bounded-word-diff";

// A word diff costs about (words) × (words changed): two 3,000-word outputs with nothing in
// common took 9.5 s. Past a size or a number of changes, the two are shown side by side instead.
const words = (n: number, word: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => word(i)).join(" ");

describe("boundedWordDiff", () => {
  it("diffs word by word when the outputs are close", () => {
    const result = boundedWordDiff("the quick fox", "the slow fox");
    expect(result).toEqual({
      kind: "parts",
      parts: [
        expect.objectContaining({ value: "the " }),
        expect.objectContaining({ value: "quick", removed: true }),
        expect.objectContaining({ value: "slow", added: true }),
        expect.objectContaining({ value: " fox" }),
      ],
    });
  });

  it("diffs long outputs with a few changes", () => {
    const before = words(10_000, (i) => `w${i}`);
    const after = words(10_000, (i) => (i % 100 === 0 ? `x${i}` : `w${i}`));
    const result = boundedWordDiff(before, after);
    expect(result.kind).toBe("parts");
    if (result.kind === "parts") expect(result.parts.filter((p) => p.added)).toHaveLength(100);
  });

  it("gives up past WORD_DIFF_MAX_EDITS changes: too many changes", () => {
    const n = WORD_DIFF_MAX_EDITS; // each changed word is one removal and one addition
    const result = boundedWordDiff(
      words(n, (i) => `w${i}`),
      words(n, (i) => `v${i}`),
    );
    expect(result).toEqual({ kind: "too_different", reason: "changes" });
  });

  it("does not diff past WORD_DIFF_MAX_WORDS words on a side: too long", () => {
    const long = words(WORD_DIFF_MAX_WORDS + 1, () => "w");
    expect(boundedWordDiff(long, "w")).toEqual({ kind: "too_different", reason: "length" });
    expect(boundedWordDiff("w", long)).toEqual({ kind: "too_different", reason: "length" });
  });
});

describe("<AttemptDiff>", () => {
  it("shows two outputs with nothing in common side by side, with a notice", () => {
    const before = words(3_000, (i) => `w${i}`);
    const after = words(3_000, (i) => `v${i}`);
    const html = renderToString(
      createElement(AttemptDiff, { before, after, beforeLabel: "Run A", afterLabel: "Run B" }),
    );
    expect(html).toContain("These outputs differ in too many places to show word by word");
    expect(html).toContain("w2999");
    expect(html).toContain("v2999");
  });
});
