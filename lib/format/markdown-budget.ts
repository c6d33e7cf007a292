// Markdown parsing (micromark and mdast, under react-markdown) costs far more than the text's
// length suggests: emphasis and link marks (`*a` × 10,000: 50 s) and list items (4,000 `- a`
// lines: 9 s on a loaded 2-core machine) are costly, and nesting is recursive (`>` × 3,000
// overflows the stack). Stored text is unbounded (descriptions, outputs), so only a prefix within
// these budgets is formatted; the rest is shown as it is (~0.5 s at most on that loaded machine).

/** Characters formatted as Markdown, at most. */
export const MARKDOWN_MAX_CHARS = 16_384;
/** Emphasis, code and link marks formatted, at most. */
export const MARKDOWN_MAX_DELIMITERS = 1_000;
/** Quotes and list items opened, summed over the lines, at most. */
export const MARKDOWN_MAX_CONTAINERS = 500;
/** Quotes, list items and indentation levels at one line's start, at most. */
export const MARKDOWN_MAX_DEPTH = 8;

/** The prefix to format as Markdown and the rest, to show as plain text (`markdown + plain` is the text). */
export type BoundedMarkdown = { markdown: string; plain: string };

const DELIMITERS = new Set(["*", "_", "`", "[", "]", "(", "<"]);
const LIST_MARKER = /^(?:[-+*]|\d{1,9}[.)])(?=[ \t]|$)/;

/** Nesting a line opens: each `>`, each list marker, each two columns of indentation before them. */
function lineDepth(line: string): number {
  let depth = 0;
  let columns = 0;
  let i = 0;
  while (i < line.length && depth + Math.floor(columns / 2) <= MARKDOWN_MAX_DEPTH) {
    const c = line[i];
    if (c === " ") columns += 1;
    else if (c === "\t") columns += 4;
    else if (c === ">") {
      depth += 1;
      if (line[i + 1] === " ") i += 1; // the space after `>` belongs to it
    } else {
      const marker = LIST_MARKER.exec(line.slice(i, i + 11));
      if (!marker) break;
      depth += 1;
      i += marker[0].length;
      while (line[i] === " " || line[i] === "\t") i += 1; // so do the spaces after a list marker
      continue;
    }
    i += 1;
  }
  return depth + Math.floor(columns / 2);
}

function delimiterCount(line: string): number {
  let n = 0;
  for (const c of line) if (DELIMITERS.has(c)) n += 1;
  return n;
}

/** Splits `text` at the first line's start past a budget: what is before is formatted. */
export function boundMarkdown(text: string): BoundedMarkdown {
  let cut = 0;
  let delimiters = 0;
  let containers = 0;
  while (cut < text.length) {
    const newline = text.indexOf("\n", cut);
    const end = newline === -1 ? text.length : newline + 1;
    if (end > MARKDOWN_MAX_CHARS) break;
    const line = text.slice(cut, end);
    const depth = lineDepth(line);
    delimiters += delimiterCount(line);
    containers += depth;
    if (
      depth > MARKDOWN_MAX_DEPTH ||
      delimiters > MARKDOWN_MAX_DELIMITERS ||
      containers > MARKDOWN_MAX_CONTAINERS
    )
      break;
    cut = end;
  }
  return { markdown: text.slice(0, cut), plain: text.slice(cut) };
}
