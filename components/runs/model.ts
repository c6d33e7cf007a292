import type { z } from "zod";
import { secondsBetween } from "@/lib/format/duration";
import type { RunRowSchema } from "./schema";

// What the runs list and overview read from a row of GET /api/runs. The newer fields (tokens,
// cost, meta, who started it) are optional here so a server without them still renders.
export type StartedBy = { via: "dashboard" | "api" | "deployment"; name: string | null };
export type RunRow = z.infer<typeof RunRowSchema>;

export const ACTIVE_STATUSES = new Set(["queued", "running", "pending_human_input"]);

export const runHref = (r: { crew: string; id: string }) =>
  `/crews/${encodeURIComponent(r.crew)}/runs/${r.id}`;

export const crewHref = (crew: string) => `/crews/${encodeURIComponent(crew)}`;

export function runDuration(r: RunRow, now = Date.now()): number | null {
  if (typeof r.duration_seconds === "number") return r.duration_seconds;
  return secondsBetween(r.started_at, r.finished_at, now);
}

const VIA: Record<StartedBy["via"], string> = {
  dashboard: "Dashboard",
  api: "API",
  deployment: "Deployment",
};

/** "ada@example.com", "API · ci-token", "API" — who started a run and how. */
export function startedByLabel(s: RunRow["started_by"]): string {
  if (!s) return "API";
  if (typeof s === "string") return s;
  if (s.via === "dashboard") return s.name ?? "Dashboard";
  return s.name ? `${VIA[s.via]} · ${s.name}` : VIA[s.via];
}

/** The meta object's scalar entries as "key:value" tags, the form the `meta` filter takes. */
export function metaTags(meta: RunRow["meta"]): string[] {
  if (!meta || typeof meta !== "object") return [];
  return Object.entries(meta)
    .filter(([, v]) => ["string", "number", "boolean"].includes(typeof v))
    .map(([k, v]) => `${k}:${String(v)}`);
}
