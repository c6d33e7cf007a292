/**
 * Near-duplicates: places in two files (or two in one) that share a run of six or more lines,
 * the same or the same but for names, strings and numbers. Blank lines, comments, imports and
 * lines of punctuation alone are passed over; a run found in more than eight places is an idiom
 * (a hook's call, a form row), not a copy, and is not counted. tests/unit/house.test.ts holds
 * the number of file pairs per folder to a ceiling.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT, sourceFiles } from "./metrics.ts";

const RUN = 6;
const TOO_COMMON = 8;
const KEYWORDS = new Set(
  (
    "as async await break case catch class const continue default delete do else export extends " +
    "false finally for from function if import in instanceof let new null of return satisfies " +
    "switch this throw true try type typeof undefined void while yield interface enum"
  ).split(" "),
);

/** A line of two words at most (`name: "text",`, `value={value}`): alike everywhere. */
const isThin = (shape: string) => (shape.match(/[ISN]|[a-z]+/g) ?? []).length <= 2;

type Line = { shape: string; at: number };

/** A line as its shape: names, strings and numbers stand for any. */
function shapeOf(line: string): string {
  return line
    .replace(/(["'`])(?:\\.|(?!\1).)*\1/g, "S")
    .replace(/\b\d[\d_.]*\b/g, "N")
    .replace(/[A-Za-z_$][\w$]*/g, (w) => (KEYWORDS.has(w) ? w : "I"))
    .replace(/\s+/g, "");
}

/** The lines that count, each with its line number. */
function codeLines(source: string): Line[] {
  const out: Line[] = [];
  let inComment = false;
  let inImport = false;
  source.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (inComment) {
      inComment = !line.includes("*/");
      return;
    }
    if (line.startsWith("/*")) {
      inComment = !line.includes("*/");
      return;
    }
    if (inImport) {
      inImport = !/from\s+["']/.test(line);
      return;
    }
    if (/^import\b/.test(line)) {
      inImport = !/from\s+["']|^import\s+["']/.test(line);
      return;
    }
    if (line === "" || line.startsWith("//") || line.startsWith("*") || !/[\w$"'`]/.test(line))
      return;
    out.push({ shape: shapeOf(line), at: i + 1 });
  });
  return out;
}

export type Pair = { a: string; b: string; at: string };

/** The file pairs under these folders that share a run, each once, with where they first do. */
export function duplicatePairs(folders: readonly string[]): Pair[] {
  const files = sourceFiles(folders);
  const lines = files.map((f) => codeLines(readFileSync(path.join(ROOT, f), "utf8")));
  const places = new Map<string, [number, number][]>();
  lines.forEach((ls, f) => {
    for (let i = 0; i + RUN <= ls.length; i++) {
      const run = ls.slice(i, i + RUN).map((l) => l.shape);
      if (run.filter(isThin).length > RUN / 2) continue;
      const key = run.join("\n");
      places.set(key, [...(places.get(key) ?? []), [f, i]]);
    }
  });
  const pairs = new Map<string, Pair>();
  for (const at of places.values()) {
    if (at.length < 2 || at.length > TOO_COMMON) continue;
    for (let x = 0; x < at.length; x++) {
      for (let y = x + 1; y < at.length; y++) {
        const [fa = 0, ia = 0] = at[x] ?? [];
        const [fb = 0, ib = 0] = at[y] ?? [];
        // Overlapping windows of one run of lines (a repeated line) are not two places.
        if (fa === fb && Math.abs(ia - ib) < RUN) continue;
        const key = `${fa}:${fb}`;
        if (pairs.has(key)) continue;
        const a = files[fa] ?? "";
        const b = files[fb] ?? "";
        const lineA = lines[fa]?.[ia]?.at;
        const lineB = lines[fb]?.[ib]?.at;
        pairs.set(key, { a, b, at: `${a}:${lineA} ~ ${b}:${lineB}` });
      }
    }
  }
  return [...pairs.values()];
}
