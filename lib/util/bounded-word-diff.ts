import { type Change, diffWords } from "diff";

// A word diff costs about (words) × (words changed): two 3,000-word outputs with nothing in
// common took 9.5 s, 10,000 words over a minute, on the server or in the viewer's tab. Past
// these bounds the caller shows the two texts side by side instead (measured: 20,000 words a
// side, bounded at 1,000 edits, ≤ 0.65 s on a loaded 2-core machine).
export const WORD_DIFF_MAX_WORDS = 20_000;
/** Words and spaces removed plus added, at most (a changed word is a removal and an addition). */
export const WORD_DIFF_MAX_EDITS = 1_000;

export type WordDiff =
  | { kind: "parts"; parts: Change[] }
  /** `length`: a side has more than WORD_DIFF_MAX_WORDS words; `changes`: past WORD_DIFF_MAX_EDITS. */
  | { kind: "too_different"; reason: "length" | "changes" };

/** Whether `text` has more than `max` words, counted only as far as `max` + 1. */
function moreWordsThan(text: string, max: number): boolean {
  const word = /\S+/g;
  let n = 0;
  while (word.exec(text)) if (++n > max) return true;
  return false;
}

/** `before` → `after` word by word (diff's diffWords), or why not, within the bounds above. */
export function boundedWordDiff(before: string, after: string): WordDiff {
  if (moreWordsThan(before, WORD_DIFF_MAX_WORDS) || moreWordsThan(after, WORD_DIFF_MAX_WORDS))
    return { kind: "too_different", reason: "length" };
  const parts = diffWords(before, after, { maxEditLength: WORD_DIFF_MAX_EDITS });
  return parts ? { kind: "parts", parts } : { kind: "too_different", reason: "changes" };
}
