// Whether a task's output is a JSON document, and whether an edit of it still is: small enough to
// load with the review panel (the editor itself loads when someone edits).

import { errorMessage } from "@/lib/errors";

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

/** Why `draft` cannot be approved as a JSON output, or null. */
export function jsonProblem(draft: string): string | null {
  try {
    JSON.parse(draft);
    return null;
  } catch (err) {
    return `Not valid JSON: ${errorMessage(err)}`;
  }
}
