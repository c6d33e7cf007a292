import type { Experiment } from "@/lib/contract/experiments";
import type { Metric, Score } from "./scorers";
import { summarize, wilson } from "./stats";

// The comparison: for each variant and metric, the mean of its scored cells (rows × repeats) with
// spread and a 95% interval, and how far it is from the baseline; the pairwise judges' win rates;
// and the gates an experiment's YAML sets, each with a sentence saying why it held or not.

export type ScoredCell = { variant: string; scores: Record<string, Score> };
export type PairVerdictRow = { metric: string; winner: "a" | "b" | "tie" | null };

export function matrixOf(
  metrics: Metric[],
  variants: string[],
  baseline: string,
  cells: ScoredCell[],
): Experiment["matrix"]["stats"] {
  const stats: Experiment["matrix"]["stats"] = [];
  for (const m of metrics) {
    const byVariant = new Map(
      variants.map((v) => [
        v,
        summarize(
          cells
            .filter((c) => c.variant === v)
            .flatMap((c) => {
              const value = c.scores[m.name]?.value;
              return typeof value === "number" ? [value] : [];
            }),
        ),
      ]),
    );
    const base = byVariant.get(baseline)?.mean ?? null;
    for (const v of variants) {
      const s = byVariant.get(v) ?? summarize([]);
      const delta =
        s.mean !== null && base !== null ? Math.round((s.mean - base) * 1e6) / 1e6 : null;
      stats.push({ variant: v, metric: m.name, ...s, delta });
    }
  }
  return stats;
}

export function pairwiseOf(
  scorers: { name: string; variants: [string, string] }[],
  verdicts: PairVerdictRow[],
): Experiment["pairwise"] {
  return scorers.map(({ name, variants: [a, b] }) => {
    const mine = verdicts.filter((v) => v.metric === name && v.winner !== null);
    const a_wins = mine.filter((v) => v.winner === "a").length;
    const b_wins = mine.filter((v) => v.winner === "b").length;
    const ties = mine.length - a_wins - b_wins;
    const w = wilson(a_wins + ties / 2, mine.length);
    return {
      metric: name,
      a,
      b,
      n: mine.length,
      a_wins,
      b_wins,
      ties,
      a_win_rate: w.rate,
      ci_low: w.low,
      ci_high: w.high,
    };
  });
}

type Gate = { metric: string; min?: number; max?: number; max_drop?: number };

/** Each gate for each variant: `min` and `max` for all, `max_drop` for all but the baseline. */
export function gatesOf(
  gates: Gate[],
  metrics: Metric[],
  stats: Experiment["matrix"]["stats"],
  baseline: string,
): Experiment["gates"] {
  const out: Experiment["gates"] = [];
  for (const g of gates) {
    const lower = metrics.find((m) => m.name === g.metric)?.better === "lower";
    const base = stats.find((s) => s.metric === g.metric && s.variant === baseline)?.mean ?? null;
    for (const s of stats.filter((x) => x.metric === g.metric)) {
      const mean = s.mean;
      for (const [bound, limit] of [
        ["minimum", g.min],
        ["maximum", g.max],
      ] as const) {
        if (limit === undefined) continue;
        const passed = mean !== null && (bound === "minimum" ? mean >= limit : mean <= limit);
        out.push({
          variant: s.variant,
          metric: g.metric,
          passed,
          message: `${g.metric} ${fmt(mean)} ${passed ? "meets" : "misses"} the ${bound} ${limit}`,
        });
      }
      if (g.max_drop !== undefined && s.variant !== baseline) {
        const drop = mean !== null && base !== null ? (lower ? mean - base : base - mean) : null;
        const passed = drop !== null && drop <= g.max_drop + 1e-9;
        out.push({
          variant: s.variant,
          metric: g.metric,
          passed,
          message:
            drop === null
              ? `${g.metric}: no value to compare with ${baseline}`
              : `${g.metric} ${fmt(mean)} vs ${baseline} ${fmt(base)}: ${drop > 0 ? `worse by ${fmt(drop)}` : "not worse"}, ${passed ? "within" : "beyond"} the margin ${g.max_drop}`,
        });
      }
    }
  }
  return out;
}

const fmt = (x: number | null) => (x === null ? "—" : String(Math.round(x * 1000) / 1000));
