// `{name}` placeholders; any other brace (JSON in a prompt, `{ }`, `{1}`) is left alone.
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_-]*)\}/g;

/**
 * The longest text a placeholder expansion may make, in characters: twice the 1 MiB kickoff
 * body, so a text naming each input once fits, while a placeholder repeated over a large input
 * (6,666 × `{a}` over 75 KB would be 512 M characters) cannot multiply it into the heap.
 */
export const EXPANDED_MAX_CHARS = 2 * 1024 * 1024;

export type InputValue = string | number | boolean;

/** A text that would be longer than its budget with its placeholders filled in. */
export class PlaceholderBudgetError extends Error {
  constructor(
    readonly field: string,
    readonly chars: number,
    readonly maxChars: number,
  ) {
    super(
      `${field} would be ${chars.toLocaleString("en")} characters with its {placeholders} filled in; at most ${maxChars.toLocaleString("en")} (repeat large inputs less)`,
    );
  }
}

/** Placeholder names in order of first appearance across `texts`, each once. */
export function findPlaceholders(texts: Iterable<string>): string[] {
  const seen = new Set<string>();
  for (const text of texts) {
    for (const m of text.matchAll(PLACEHOLDER)) if (m[1]) seen.add(m[1]);
  }
  return [...seen];
}

type Budget = {
  /** What the text is, for the error: "task 'research' description". */
  field?: string;
  maxChars?: number;
};

/**
 * `text` with each known `{name}` replaced by its input. The size is added up before anything is
 * built; past `maxChars` it throws a PlaceholderBudgetError naming the field and the size.
 */
export function interpolate(
  text: string,
  inputs: Record<string, InputValue>,
  { field = "the text", maxChars = EXPANDED_MAX_CHARS }: Budget = {},
): string {
  const values = new Map<string, string>();
  let chars = text.length;
  for (const m of text.matchAll(PLACEHOLDER)) {
    const name = m[1] ?? "";
    if (!Object.hasOwn(inputs, name)) continue;
    let value = values.get(name);
    if (value === undefined) {
      value = String(inputs[name]);
      values.set(name, value);
    }
    chars += value.length - m[0].length;
  }
  if (chars > maxChars) throw new PlaceholderBudgetError(field, chars, maxChars);
  return text.replace(PLACEHOLDER, (whole, name: string) => values.get(name) ?? whole);
}

/** Required inputs that are absent, null or empty strings. */
export function missingInputs(required: string[], given: Record<string, unknown>) {
  return required.filter((name) => {
    const v = Object.hasOwn(given, name) ? given[name] : undefined;
    return v === undefined || v === null || v === "";
  });
}
