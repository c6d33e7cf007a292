import { jsonProblem } from "@/components/json-problem";
import { argumentProblems } from "./argument-check";

export type ParsedArguments =
  | { ok: true; value: Record<string, unknown> | undefined }
  | { ok: false; error: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The edited arguments, or why they cannot be sent: not JSON, or not what the tool takes. */
export function parseArguments(text: string, schema: Record<string, unknown>): ParsedArguments {
  const notJson = jsonProblem(text);
  if (notJson) return { ok: false, error: notJson };
  const value: unknown = JSON.parse(text);
  if (!isObject(value))
    return { ok: false, error: 'The arguments are a JSON object: { "name": value, … }.' };
  const problems = argumentProblems(value, schema);
  if (problems.length) return { ok: false, error: problems.join(" ") };
  return { ok: true, value };
}

/** The draft as parsed: nothing to check while the arguments are not being edited. */
export function parseDraft(draft: string | null, schema: Record<string, unknown>): ParsedArguments {
  return draft === null ? { ok: true, value: undefined } : parseArguments(draft, schema);
}

/** The arguments to send instead of the call's own: only when they parse and differ. */
export function editedArguments(
  parsed: ParsedArguments,
  original: unknown,
): Record<string, unknown> | undefined {
  return parsed.ok &&
    parsed.value !== undefined &&
    JSON.stringify(parsed.value) !== JSON.stringify(original)
    ? parsed.value
    : undefined;
}

/** The editor grows with its text, between 4 and 16 rows. */
export function editorRows(draft: string): number {
  return Math.min(16, Math.max(4, draft.split("\n").length + 1));
}
