// Blotting secrets (and their forms, secretForms) out of text before it is shown or recorded. A
// tool may echo a secret with separators between its characters ("s e c r e t", "s-e-c",
// zero-width spaces) to slip past a plain search, so forms are matched with separators skipped.
// All forms are found in one pass over the text by one automaton (Aho–Corasick, as a table): a
// constant amount of work per character, whatever the text and however many forms. A native
// pattern over the forms' first characters skips that pass for text that cannot hold one.

const MARK = "[redacted]";
// Under this many characters (separators left out), a form is matched only as written: short
// ones, spread over separators, would match ordinary words ("te st" for "test").
const MIN_SPREAD = 6;
// More separators than this in a row stop a match: a gap, not spacing (the form's own `-` with a
// spacer either side already makes 5: "p , - , r").
const MAX_GAP = 8;

// Whitespace, invisible format characters (zero-width spaces, tags…) and spacing punctuation.
const SPACERS = " \t\n\v\f\r-_.,:;|/\\*+~'\"`";
const ASCII_SEPARATORS = new Uint8Array(128);
for (const c of SPACERS) ASCII_SEPARATORS[c.charCodeAt(0)] = 1;
const OTHER_SEPARATOR = /^[\s\p{Cf}]$/u;
const unit = (code: number) => `\\u{${code.toString(16)}}`;
// At most MAX_GAP of them, as a pattern (code points: never fewer than the code units counted).
const SEPARATORS = `[\\s\\p{Cf}${[...SPACERS].map((c) => unit(c.charCodeAt(0))).join("")}]{0,${MAX_GAP}}`;
let bmpSeparators: Uint8Array | undefined;
/** Whether the code unit at `i` (or the surrogate pair starting there) is a separator; its size. */
function separatorAt(text: string, i: number, code: number): number {
  if (code < 128) return ASCII_SEPARATORS[code] ?? 0;
  if (code >= 0xd800 && code <= 0xdbff) return OTHER_SEPARATOR.test(text.slice(i, i + 2)) ? 2 : 0;
  if (!bmpSeparators) {
    bmpSeparators = new Uint8Array(0x10000);
    for (let c = 128; c < 0x10000; c++)
      if (OTHER_SEPARATOR.test(String.fromCharCode(c))) bmpSeparators[c] = 1;
  }
  return bmpSeparators[code] ?? 0;
}

/** A form's code units, separators left out; a gap (MAX_GAP) stands as code unit 0. */
function spread(form: string): number[] {
  const out: number[] = [];
  let gap = 0;
  for (let i = 0; i < form.length; ) {
    const code = form.charCodeAt(i);
    const sep = separatorAt(form, i, code);
    if (sep) {
      gap += sep;
      i += sep;
      continue;
    }
    if (gap > MAX_GAP && out.length) out.push(0);
    gap = 0;
    out.push(code);
    i++;
  }
  return out;
}

/**
 * Every spread form as one table: `moves[state × classes + class]` is the next state, `longest`
 * the longest form ending in a state (0: none). Code units no form holds are class 0.
 */
type Automaton = {
  moves: Int32Array;
  classes: number;
  ascii: Int32Array;
  other: Map<number, number>;
  longest: Int32Array;
  window: number;
};

function automaton(forms: number[][]): Automaton {
  const ascii = new Int32Array(128);
  const other = new Map<number, number>();
  let classes = 1;
  const classOf = (code: number) => {
    const known = code < 128 ? ascii[code] : other.get(code);
    if (known) return known;
    if (code < 128) ascii[code] = classes;
    else other.set(code, classes);
    return classes++;
  };
  // The trie of the forms, by class.
  const children: Map<number, number>[] = [new Map()];
  const ends: number[] = [0];
  for (const form of forms) {
    let state = 0;
    for (const code of form) {
      const c = classOf(code);
      let to = children[state]?.get(c);
      if (to === undefined) {
        to = children.length;
        children.push(new Map());
        ends.push(0);
        children[state]?.set(c, to);
      }
      state = to;
    }
    ends[state] = form.length;
  }
  // Breadth first, each state's moves are its children, else its fallback's moves.
  const moves = new Int32Array(children.length * classes);
  const fallback = new Int32Array(children.length);
  const longest = new Int32Array(children.length);
  const queue = [0];
  for (let q = 0; q < queue.length; q++) {
    const state = queue[q] ?? 0;
    const back = fallback[state] ?? 0;
    for (let c = 0; c < classes; c++) {
      const child = children[state]?.get(c);
      if (child === undefined) {
        moves[state * classes + c] = state === 0 ? 0 : (moves[back * classes + c] ?? 0);
        continue;
      }
      moves[state * classes + c] = child;
      fallback[child] = state === 0 ? 0 : (moves[back * classes + c] ?? 0);
      // A state's own form is the longest ending there; else the longest of its fallback's.
      longest[child] = ends[child] || (longest[fallback[child] ?? 0] ?? 0);
      queue.push(child);
    }
  }
  const window = Math.max(...forms.map((f) => f.length));
  return { moves, classes, ascii, other, longest, window };
}

type Compiled = { matcher: Automaton | null; maybe: RegExp | null; exact: string[] };

/**
 * Text without any form's first three characters (separators between them allowed) holds no
 * form. Each alternative matches one way only (a separator is never a form's character), so the
 * native search is linear. None when a first character is half a surrogate pair.
 */
function prefilter(forms: number[][]): RegExp | null {
  // Up to a gap: the text there has more separators than the pattern allows.
  const heads = forms
    .map((f) => f.slice(0, 3))
    .map((h) => (h.includes(0) ? h.slice(0, h.indexOf(0)) : h));
  if (heads.some((h) => h.some((code) => code >= 0xd800 && code <= 0xdfff))) return null;
  return new RegExp(heads.map((h) => h.map(unit).join(SEPARATORS)).join("|"), "u");
}

// A server's forms are worked out once (resolveServer), and so their automaton once.
const compiledForms = new WeakMap<string[], Compiled>();
function compile(forms: string[]): Compiled {
  let c = compiledForms.get(forms);
  if (!c) {
    const spreads = forms.map((form) => ({ form, codes: spread(form) }));
    const long = spreads.filter((f) => f.codes.length >= MIN_SPREAD).map((f) => f.codes);
    c = {
      matcher: long.length ? automaton(long) : null,
      maybe: long.length ? prefilter(long) : null,
      exact: spreads.filter((f) => f.codes.length < MIN_SPREAD).map((f) => f.form),
    };
    compiledForms.set(forms, c);
  }
  return c;
}

/** `text` with every secret form replaced by a mark saying one was there. */
export function redact(text: string, secrets: string[]): string {
  return redactCounted(text, secrets).text;
}

/** As redact, with the steps its scan took (for the test that keeps the work linear). */
export function redactCounted(text: string, secrets: string[]): { text: string; steps: number } {
  if (!secrets.length || !text) return { text, steps: 0 };
  const { matcher, maybe, exact } = compile(secrets);
  let out = text;
  let steps = 0;
  if (matcher && (!maybe || maybe.test(text))) {
    const spans: [number, number][] = [];
    steps = scan(text, matcher, spans);
    out = marked(text, spans);
  }
  for (const form of exact) out = out.split(form).join(MARK);
  return { text: out, steps };
}

/** Adds where forms stand in the text to `spans`, merged where they touch; returns the steps. */
function scan(text: string, a: Automaton, spans: [number, number][]): number {
  const moves = a.moves;
  const classes = a.classes;
  const ascii = a.ascii;
  const longest = a.longest;
  // Where the last characters that were not separators stand in the text (a ring, 2^k long).
  const mask = 2 ** Math.ceil(Math.log2(a.window + 1)) - 1;
  const recent = new Int32Array(mask + 1);
  const gapClass = ascii[0] ?? 0;
  let steps = 0;
  let seen = 0;
  let gap = 0;
  let state = 0;
  for (let i = 0; i < text.length; steps++) {
    const code = text.charCodeAt(i);
    const sep = code < 128 ? (ASCII_SEPARATORS[code] ?? 0) : separatorAt(text, i, code);
    if (sep) {
      gap += sep;
      i += sep;
      continue;
    }
    // A long gap moves as code unit 0 does: only a form with such a gap goes on through it.
    if (gap > MAX_GAP && seen) {
      state = moves[state * classes + gapClass] ?? 0;
      recent[seen++ & mask] = i;
    }
    gap = 0;
    const c = code < 128 ? (ascii[code] ?? 0) : (a.other.get(code) ?? 0);
    state = moves[state * classes + c] ?? 0;
    recent[seen++ & mask] = i;
    const length = longest[state] ?? 0;
    if (length) add(spans, recent[(seen - length) & mask] ?? 0, i + 1);
    i++;
  }
  return steps;
}

/** Spans end in order; a new one may reach back over the last few, which it swallows. */
function add(spans: [number, number][], start: number, end: number) {
  let from = start;
  for (let last = spans.at(-1); last && last[1] >= from; last = spans.at(-1)) {
    from = Math.min(from, last[0]);
    spans.pop();
  }
  spans.push([from, end]);
}

/** The text with each span replaced by the mark. */
function marked(text: string, spans: [number, number][]): string {
  const parts: string[] = [];
  let from = 0;
  for (const [start, end] of spans) {
    parts.push(text.slice(from, start), MARK);
    from = end;
  }
  parts.push(text.slice(from));
  return parts.join("");
}

/** Redacts every string inside a JSON-like value. */
export function redactDeep(value: unknown, secrets: string[]): unknown {
  if (!secrets.length) return value;
  if (typeof value === "string") return redact(value, secrets);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, secrets));
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [redact(k, secrets), redactDeep(v, secrets)]),
    );
  return value;
}
