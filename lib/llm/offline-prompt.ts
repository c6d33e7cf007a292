import type { LanguageModelV3Prompt } from "@ai-sdk/provider";

// How the offline model (./offline-model.ts) reads its prompt: its sections, its text, its words.

/**
 * The prompt's `# Heading` sections in one pass: a section runs from its heading line to the next
 * line starting with `# `; the first of a name wins, and an empty one counts as absent.
 */
export function sectionsOf(text: string): (heading: string) => string | undefined {
  const found = new Map<string, string>();
  let heading: string | undefined;
  let start = 0;
  const close = (end: number) => {
    if (heading !== undefined && !found.has(heading)) found.set(heading, text.slice(start, end));
  };
  for (let at = 0; at < text.length; ) {
    const newline = text.indexOf("\n", at);
    const end = newline === -1 ? text.length : newline;
    if (text.startsWith("# ", at)) {
      close(at);
      // A heading line with nothing after it opens no section.
      heading = newline === -1 ? undefined : text.slice(at + 2, end);
      start = end + 1;
    }
    at = end + 1;
  }
  close(text.length);
  return (name) => found.get(name)?.trim() || undefined;
}

export function promptText(prompt: LanguageModelV3Prompt, role?: "system" | "user") {
  return prompt
    .filter((m) => !role || m.role === role)
    .map((m) =>
      typeof m.content === "string"
        ? m.content
        : m.content
            .map((p) => ("text" in p && typeof p.text === "string" ? p.text : ""))
            .join("\n"),
    )
    .join("\n");
}

// Tokens are counted as words. Counted in place, since splitting the whole prompt into an array
// of words on every call was most of this model's time.
export function wordsIn(m: LanguageModelV3Prompt[number]): number {
  if (typeof m.content === "string") return countWords(m.content);
  let n = 0;
  for (const p of m.content) if ("text" in p && typeof p.text === "string") n += countWords(p.text);
  return n;
}

/** The number of runs of non-whitespace (whitespace as `\s` means it) in `s`. */
export function countWords(s: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < s.length; i++) {
    const space = isSpace(s.charCodeAt(i));
    if (!space && !inWord) n++;
    inWord = !space;
  }
  return n;
}

function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
