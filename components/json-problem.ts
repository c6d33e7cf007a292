/**
 * Why `text` is not JSON, in words a person can act on: the line and column where it stops making
 * sense, not the parser's message. Null when it parses.
 */
export function jsonProblem(text: string): string | null {
  try {
    JSON.parse(text);
    return null;
  } catch (err) {
    const at = /position (\d+)/.exec(err instanceof Error ? err.message : "")?.[1];
    if (at === undefined) return "Not valid JSON: check the brackets, quotes and commas.";
    const before = text.slice(0, Number(at)).split("\n");
    return `Not valid JSON at line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}: check the quotes and commas there.`;
  }
}
