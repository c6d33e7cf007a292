import type { RunRow } from "@/lib/api/client";
import type { StartedBy } from "@/lib/contract/usage";
import { secondsBetween } from "@/lib/format/duration";
import { protocolLabel } from "@/lib/format/protocol";

// How the runs list and the overview read a row of GET /api/runs.
export type { RunRow };

export const runHref = (r: { crew: string; id: string }) =>
  `/crews/${encodeURIComponent(r.crew)}/runs/${r.id}`;

export const crewHref = (crew: string) => `/crews/${encodeURIComponent(crew)}`;

export function runDuration(r: RunRow, now = Date.now()): number | null {
  // The server counts finished runs; a run still going counts up to now.
  return r.duration_seconds ?? secondsBetween(r.started_at, r.finished_at, now);
}

const VIA: Record<NonNullable<StartedBy>["via"], string> = {
  dashboard: "Dashboard",
  api: "API",
  deployment: "Deployment",
  schedule: "Schedule",
  trigger: "Trigger",
  experiment: "Experiment",
};

/** "ada@example.com", "API · ci-token", "MCP · ci-token", "API" — who started a run and how. */
export function startedByLabel(s: StartedBy, meta?: unknown): string {
  if (!s) return "API";
  if (s.via === "dashboard") return s.name ?? "Dashboard";
  const via = (s.via === "api" && protocolLabel(meta)) || VIA[s.via];
  return s.name ? `${via} · ${s.name}` : via;
}

/** The meta object's scalar entries as "key:value" tags, the form the `meta` filter takes. */
export function metaTags(meta: RunRow["meta"]): string[] {
  if (!meta || typeof meta !== "object") return [];
  return Object.entries(meta)
    .filter(([, v]) => ["string", "number", "boolean"].includes(typeof v))
    .map(([k, v]) => `${k}:${String(v)}`);
}

/** Whether every run on the page is selected, or some. */
export function pageSelection(runs: { id: string }[], selected: ReadonlySet<string>) {
  const all = runs.length > 0 && runs.every((r) => selected.has(r.id));
  return { all, some: runs.some((r) => selected.has(r.id)) };
}
