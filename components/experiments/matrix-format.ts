import type { Experiment } from "@/lib/api/client";
import { formatPercent, formatTokens, formatUsd } from "@/lib/format/numbers";

export type Metric = Experiment["matrix"]["metrics"][number];
export type Stat = Experiment["matrix"]["stats"][number];

const LABEL: Record<string, string> = {
  completed: "Completed",
  latency_s: "Latency",
  tokens: "Tokens",
  cost_usd: "Cost",
};

export const metricLabel = (name: string) => LABEL[name] ?? name;

/** A value as its metric reads: a rate in percent, seconds, tokens, dollars, else 2 decimals. */
export function formatValue(m: Pick<Metric, "name" | "kind">, v: number | null): string {
  if (v === null) return "—";
  if (m.kind === "rate") return formatPercent(v);
  if (m.name === "latency_s") return `${v.toFixed(1)} s`;
  if (m.name === "tokens") return formatTokens(Math.round(v));
  if (m.name === "cost_usd") return formatUsd(v);
  return (Math.round(v * 100) / 100).toString();
}

/** The scale a metric's bars share: from the lowest interval end to the highest across variants. */
export function metricRange(row: (Pick<Stat, "mean" | "ci_low" | "ci_high"> | undefined)[]) {
  const ends = row.flatMap((s) =>
    s?.mean === null || !s ? [] : [s.ci_low ?? s.mean, s.ci_high ?? s.mean],
  );
  return { lo: Math.min(...ends), hi: Math.max(...ends) };
}

/** Before a cell's n: "no spread", its 95% interval, or nothing when there is none. */
export function spreadText(
  m: Pick<Metric, "name" | "kind">,
  s: Pick<Stat, "sd" | "ci_low" | "ci_high">,
): string {
  return s.sd === 0
    ? "no spread · "
    : s.ci_low !== null
      ? `95% ${formatValue(m, s.ci_low)} – ${formatValue(m, s.ci_high)} · `
      : "";
}
