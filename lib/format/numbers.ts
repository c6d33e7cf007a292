// Token counts and money, the same way on every screen.
const compact = new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat("en");

/** "12.3K" in tables; the exact count goes in a title or tooltip. */
export function formatTokens(n: number | null | undefined): string {
  if (n === null || n === undefined) return "—";
  return n < 10_000 ? whole.format(n) : compact.format(n);
}

export function formatCount(n: number): string {
  return whole.format(n);
}

/** Dollars with enough places to tell small runs apart: "$0.0042", "$1.27", "$1,204". */
export function formatUsd(usd: number | null | undefined): string {
  if (usd === null || usd === undefined) return "—";
  if (usd === 0) return "$0";
  if (usd < 0.01) return `$${usd.toPrecision(2)}`;
  if (usd < 100) return `$${usd.toFixed(2)}`;
  return `$${whole.format(Math.round(usd))}`;
}

export function formatPercent(ratio: number | null | undefined): string {
  if (ratio === null || ratio === undefined) return "—";
  return `${Math.round(ratio * 1000) / 10}%`;
}

/** A size in bytes as people read it: 512 B, 3.4 KB, 1.0 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
