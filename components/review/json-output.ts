// Whether a task's output is a JSON document: small enough to load with the review panel (the
// editor itself loads when someone edits).

/** The output is a JSON document (a task with output_json): edited as JSON, checked as typed. */
export function isJsonOutput(text: string) {
  const t = text.trim();
  if (!t.startsWith("{") && !t.startsWith("[")) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}
