import { createPatch, formatPatch } from "diff";

// A line diff costs about (lines) × (lines changed) on the event loop: a reviewer's 5,000 edited
// lines against 5,000 others took 8.5 s. Past these bounds the patch replaces every line, which
// is still a correct patch and costs only its length (measured: 10,000 lines with 250 changed,
// ≤ 0.25 s on a loaded 2-core machine).
export const PATCH_MAX_LINES = 10_000;
export const PATCH_MAX_CHANGED_LINES = 250;

const lineCount = (text: string) => {
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
};

/** A unified diff of `before` → `after`, line by line when that is cheap, else one hunk. */
export function boundedPatch(
  name: string,
  before: string,
  after: string,
  headers: { before: string; after: string },
): string {
  const small = lineCount(before) + lineCount(after) <= PATCH_MAX_LINES;
  const patch = small
    ? createPatch(name, before, after, headers.before, headers.after, {
        maxEditLength: PATCH_MAX_CHANGED_LINES,
      })
    : undefined;
  return patch ?? wholeReplacement(name, before, after, headers);
}

function wholeReplacement(
  name: string,
  before: string,
  after: string,
  headers: { before: string; after: string },
): string {
  const old = before === "" ? [] : before.split("\n");
  const next = after === "" ? [] : after.split("\n");
  return formatPatch({
    oldFileName: name,
    newFileName: name,
    oldHeader: headers.before,
    newHeader: headers.after,
    hunks: [
      {
        oldStart: old.length ? 1 : 0,
        oldLines: old.length,
        newStart: next.length ? 1 : 0,
        newLines: next.length,
        lines: [...old.map((l) => `-${l}`), ...next.map((l) => `+${l}`)],
      },
    ],
  });
}
