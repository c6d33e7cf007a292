import type { StatusResponse } from "@/lib/contract/status";
import { protocolLabel } from "@/lib/format/protocol";

// The run as /status describes it, with the names the run page's parts use.
export type RunStatus = StatusResponse;
export type TaskWithUsage = StatusResponse["tasks"][number];
export type TokenUsage = { input_tokens: number; output_tokens: number; total_tokens?: number };
type StartedBy = StatusResponse["started_by"];

/** "admin@example.com, from the dashboard" / "token ci-bot, through the API" / "a deployment". */
export function startedByText(by: StartedBy, meta?: unknown): string | null {
  if (!by) return null;
  if (by.via === "dashboard") return `${by.name ?? "someone"}, from the dashboard`;
  if (by.via === "api") {
    const protocol = protocolLabel(meta);
    const way = protocol ? `over ${protocol}` : "through the API";
    return by.name ? `token ${by.name}, ${way}` : way;
  }
  if (by.via === "schedule") return `schedule ${by.name ?? "(deleted)"}`;
  if (by.via === "trigger") return `trigger ${by.name ?? "(deleted)"}`;
  if (by.via === "experiment") return `experiment ${by.name ?? ""}`.trim();
  return by.name ? `deployment ${by.name}` : "a deployment";
}
