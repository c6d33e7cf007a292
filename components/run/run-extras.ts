import type { StatusResponse } from "@/lib/api/schemas";

// The /status fields the metrics work adds (see the data contract); read defensively so the page
// renders against a server without them.
export type TokenUsage = { input_tokens: number; output_tokens: number; total_tokens?: number };
export type StartedBy = { via: "dashboard" | "api" | "deployment"; name: string | null };
export type RunCost = {
  usd: number | null;
  estimated?: boolean;
  models: string[];
  unpriced_models: string[];
};
export type RunExtras = {
  token_usage?: TokenUsage;
  cost?: RunCost;
  timing?: { working_seconds: number | null; review_wait_seconds: number };
  inputs?: Record<string, string | number | boolean | null>;
  started_by?: StartedBy | null;
  stopped_by?: string | null;
  stopped_at?: string | null;
};

export type RunStatus = StatusResponse & RunExtras;
export type TaskWithUsage = StatusResponse["tasks"][number] & { token_usage?: TokenUsage };

export const extras = (s: StatusResponse): RunStatus => s as RunStatus;

/** "you, from the dashboard" / "token ci-bot, through the API" / "a deployment". */
export function startedByText(by: StartedBy | null | undefined): string | null {
  if (!by) return null;
  const who = by.name ?? "someone";
  if (by.via === "dashboard") return `${who}, from the dashboard`;
  if (by.via === "api") return by.name ? `token ${by.name}, through the API` : "through the API";
  return by.name ? `deployment ${by.name}` : "a deployment";
}
