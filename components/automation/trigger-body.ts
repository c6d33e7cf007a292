import { ApiError } from "@/lib/api/client";

const POLICY_VALUES = ["enqueue", "reject", "stop"] as const;
export type Policy = (typeof POLICY_VALUES)[number];

export const isPolicy = (v: string): v is Policy => POLICY_VALUES.some((p) => p === v);

/** What the trigger form sends: the name and mapping trimmed, empty mappings left out. */
export function triggerBody({
  name,
  mapping,
  key,
  policy,
}: {
  name: string;
  mapping: Record<string, string>;
  key: string;
  policy: Policy;
}) {
  return {
    name: name.trim(),
    mapping: Object.fromEntries(
      Object.entries(mapping).flatMap(([k, v]) => (v.trim() ? [[k, v.trim()]] : [])),
    ),
    concurrency: key.trim() ? { key: key.trim(), policy } : null,
  };
}

/** The server's refusals by field path; empty when it named none. */
export function errorsByField(err: unknown): Record<string, string> {
  const byField: Record<string, string> = {};
  if (err instanceof ApiError)
    for (const fe of err.problem.errors ?? []) byField[fe.path] = fe.message;
  return byField;
}
