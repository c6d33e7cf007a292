"use client";

import { Check, X } from "lucide-react";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "@/components/ui/table";
import type { Experiment } from "@/lib/api/client";
import { formatPercent, formatTokens, formatUsd } from "@/lib/format/numbers";

type Metric = Experiment["matrix"]["metrics"][number];
type Stat = Experiment["matrix"]["stats"][number];

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

/** The interval as a bar on the metric's own scale across variants, the mean a tick on it. */
function IntervalBar({ stat, lo, hi }: { stat: Stat; lo: number; hi: number }) {
  if (stat.mean === null || hi <= lo) return null;
  const at = (v: number) => `${((v - lo) / (hi - lo)) * 100}%`;
  const from = stat.ci_low ?? stat.mean;
  const to = stat.ci_high ?? stat.mean;
  return (
    <div aria-hidden className="relative mt-1 h-1.5 w-full rounded-full bg-muted">
      <div
        className="absolute h-full rounded-full bg-primary/40"
        style={{ left: at(from), width: `calc(${at(to)} - ${at(from)})` }}
      />
      <div
        className="-translate-x-1/2 absolute top-[-2px] h-2.5 w-0.5 rounded bg-primary"
        style={{ left: at(stat.mean) }}
      />
    </div>
  );
}

function Delta({ metric, delta }: { metric: Metric; delta: number | null }) {
  if (delta === null) return null;
  const size = formatValue(metric, Math.abs(delta));
  // A difference too small to show at the metric's precision is no difference here.
  if (!/[1-9]/.test(size)) return null;
  const better = metric.better === "higher" ? delta > 0 : delta < 0;
  const text = `${delta > 0 ? "+" : "−"}${size}`;
  return (
    <span
      className={cn(
        "font-medium text-xs tabular-nums",
        better ? "text-tone-success-foreground" : "text-tone-danger-foreground",
      )}
    >
      {text}
      <span className="sr-only">{better ? " (better)" : " (worse)"}</span>
    </span>
  );
}

/** How far a judge agrees with the reviewers, or that nobody has checked, with a way to. */
function JudgeCalibration({
  metric: m,
  onCalibrate,
}: {
  metric: Metric;
  onCalibrate?: (judge: Record<string, unknown>) => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  if (m.calibration)
    return (
      <div className="mt-1 text-muted-foreground text-xs">
        agrees with reviewers {formatPercent(m.calibration.agreement)} (95%{" "}
        {formatPercent(m.calibration.ci_low)}–{formatPercent(m.calibration.ci_high)}, n{" "}
        {m.calibration.n})
      </div>
    );
  return (
    <div className="mt-1 flex flex-wrap items-center gap-1 text-tone-warning-foreground text-xs">
      uncalibrated judge
      {onCalibrate && m.judge && (
        <Button
          size="sm"
          variant="ghost"
          className="h-6 px-1.5 text-xs"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            await onCalibrate(m.judge as Record<string, unknown>).finally(() => setBusy(false));
          }}
        >
          {busy ? "Calibrating…" : "Calibrate"}
        </Button>
      )}
    </div>
  );
}

/** Variants × metrics: mean, 95% interval and distance from the chosen baseline. */
export function MatrixTable({
  experiment: x,
  baseline,
  onBaseline,
  onCalibrate,
}: {
  experiment: Experiment;
  baseline: string;
  onBaseline: (v: string) => void;
  /** Calibrates a judge against reviewers' decisions; absent for someone who may not. */
  onCalibrate?: (judge: Record<string, unknown>) => Promise<void>;
}) {
  const names = x.variants.map((v) => v.name);
  const stat = (v: string, m: string) =>
    x.matrix.stats.find((s) => s.variant === v && s.metric === m);
  return (
    <section aria-labelledby="matrix" className="mb-8 grid gap-3">
      <h2 id="matrix" className="m-0 font-semibold text-base">
        Comparison
      </h2>
      <Table scrollLabel="Comparison of variants" className="min-w-[36rem]">
        <TableHeader>
          <TableRow>
            <TableHead className="w-40">Metric</TableHead>
            {names.map((n) => (
              <TableHead key={n}>
                <div className="flex flex-wrap items-center gap-1.5">
                  <span className="font-medium text-foreground">{n}</span>
                  {n === baseline ? (
                    <Badge tone="info">Baseline</Badge>
                  ) : (
                    <Button
                      size="sm"
                      variant="ghost"
                      className="h-6 px-1.5 text-xs"
                      onClick={() => onBaseline(n)}
                    >
                      Pick as baseline
                    </Button>
                  )}
                </div>
              </TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {x.matrix.metrics.map((m) => {
            const row = names.map((n) => stat(n, m.name));
            const ends = row.flatMap((s) =>
              s?.mean === null || !s ? [] : [s.ci_low ?? s.mean, s.ci_high ?? s.mean],
            );
            const lo = Math.min(...ends);
            const hi = Math.max(...ends);
            const base = stat(baseline, m.name)?.mean ?? null;
            return (
              <TableRow key={m.name} className="align-top">
                <TableCell>
                  <div className="font-medium">{metricLabel(m.name)}</div>
                  <div className="text-muted-foreground text-xs">
                    {m.better === "higher" ? "higher is better" : "lower is better"}
                  </div>
                  {m.calibration !== undefined && (
                    <JudgeCalibration metric={m} onCalibrate={onCalibrate} />
                  )}
                </TableCell>
                {row.map((s, i) => (
                  <TableCell key={names[i]} className="min-w-36">
                    {s && s.mean !== null ? (
                      <div className="grid gap-0.5">
                        <div className="flex items-baseline gap-2">
                          <span className="font-semibold tabular-nums">
                            {formatValue(m, s.mean)}
                          </span>
                          {names[i] !== baseline && (
                            <Delta metric={m} delta={base === null ? null : s.mean - base} />
                          )}
                        </div>
                        <span className="text-muted-foreground text-xs tabular-nums">
                          {s.sd === 0
                            ? "no spread · "
                            : s.ci_low !== null
                              ? `95% ${formatValue(m, s.ci_low)} – ${formatValue(m, s.ci_high)} · `
                              : ""}
                          n {s.n}
                        </span>
                        <IntervalBar stat={s} lo={lo} hi={hi} />
                      </div>
                    ) : (
                      <span className="text-muted-foreground">—</span>
                    )}
                  </TableCell>
                ))}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </section>
  );
}

/** Pairwise judges: how often each side won, ties counted half. */
export function PairwiseList({ experiment: x }: { experiment: Experiment }) {
  if (!x.pairwise.length) return null;
  return (
    <section aria-labelledby="pairwise" className="mb-8 grid gap-3">
      <h2 id="pairwise" className="m-0 font-semibold text-base">
        Head to head
      </h2>
      {x.pairwise.map((p) => (
        <div key={p.metric} className="grid gap-1.5 text-sm">
          <p className="m-0">
            <span className="font-medium">{p.a}</span> won {p.a_wins},{" "}
            <span className="font-medium">{p.b}</span> won {p.b_wins}
            {p.ties ? `, ${p.ties} tied` : ""} of {p.n}
            {p.a_win_rate !== null && (
              <span className="text-muted-foreground">
                {" "}
                · {p.a} {formatPercent(p.a_win_rate)} (95% {formatPercent(p.ci_low)}–
                {formatPercent(p.ci_high)})
              </span>
            )}
          </p>
          {p.n > 0 && (
            <div aria-hidden className="flex h-2 overflow-hidden rounded-full bg-muted">
              <div className="bg-primary" style={{ width: `${(p.a_wins / p.n) * 100}%` }} />
              <div
                className="bg-muted-foreground/40"
                style={{ width: `${(p.ties / p.n) * 100}%` }}
              />
            </div>
          )}
        </div>
      ))}
    </section>
  );
}

export function GatesList({ experiment: x }: { experiment: Experiment }) {
  if (!x.gates.length) return null;
  return (
    <section aria-labelledby="gates" className="mb-8 grid gap-2">
      <h2 id="gates" className="m-0 font-semibold text-base">
        Gates
      </h2>
      <ul className="m-0 grid list-none gap-1 p-0 text-sm">
        {x.gates.map((g, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: gates in the server's order
          <li key={i} className="flex items-start gap-2">
            {g.passed ? (
              <Check aria-hidden className="mt-0.5 size-4 text-tone-success-foreground" />
            ) : (
              <X aria-hidden className="mt-0.5 size-4 text-tone-danger-foreground" />
            )}
            <span>
              <span className="sr-only">{g.passed ? "Passed: " : "Failed: "}</span>
              <span className="font-medium">{g.variant}</span> — {g.message}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
