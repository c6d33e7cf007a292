// `{name}` placeholders; any other brace (JSON in a prompt, `{ }`, `{1}`) is left alone.
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_-]*)\}/g;

export type InputValue = string | number | boolean;

/** Placeholder names in order of first appearance across `texts`, each once. */
export function findPlaceholders(texts: Iterable<string>): string[] {
  const seen = new Set<string>();
  for (const text of texts) {
    for (const m of text.matchAll(PLACEHOLDER)) if (m[1]) seen.add(m[1]);
  }
  return [...seen];
}

export function interpolate(text: string, inputs: Record<string, InputValue>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) =>
    Object.hasOwn(inputs, name) ? String(inputs[name]) : whole,
  );
}

/** Required inputs that are absent, null or empty strings. */
export function missingInputs(required: string[], given: Record<string, unknown>) {
  return required.filter((name) => {
    const v = Object.hasOwn(given, name) ? given[name] : undefined;
    return v === undefined || v === null || v === "";
  });
}
