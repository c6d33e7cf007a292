import { ApiError } from "@/lib/api/client";

/** What a failed request says in a dialog: each field's problem, else the error's message. */
export function problemText(err: unknown): string {
  const list = err instanceof ApiError ? err.problem.errors : undefined;
  if (list?.length) return list.map((e) => `${e.path}: ${e.message}`).join("; ");
  return err instanceof Error ? err.message : String(err);
}
