"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { TableCell, TableRow } from "@/components/ui/table";
import { formatPercent } from "@/lib/format/numbers";
import {
  formatValue,
  type Metric,
  metricLabel,
  metricRange,
  type Stat,
  spreadText,
} from "./matrix-format";

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
  const judge = m.judge;
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
      {onCalibrate && judge && (
        <Button
          size="sm"
          variant="ghost"
          className="h-6 px-1.5 text-xs"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            await onCalibrate(judge).finally(() => setBusy(false));
          }}
        >
          {busy ? "Calibrating…" : "Calibrate"}
        </Button>
      )}
    </div>
  );
}

/** One metric across the variants: its name and direction, then each variant's cell. */
export function MetricRow({
  metric: m,
  names,
  baseline,
  stat,
  onCalibrate,
}: {
  metric: Metric;
  names: string[];
  baseline: string;
  stat: (variant: string, metric: string) => Stat | undefined;
  onCalibrate?: (judge: Record<string, unknown>) => Promise<void>;
}) {
  const row = names.map((n) => stat(n, m.name));
  const { lo, hi } = metricRange(row);
  const base = stat(baseline, m.name)?.mean ?? null;
  return (
    <TableRow className="align-top">
      <TableCell>
        <div className="font-medium">{metricLabel(m.name)}</div>
        <div className="text-muted-foreground text-xs">
          {m.better === "higher" ? "higher is better" : "lower is better"}
        </div>
        {m.calibration !== undefined && <JudgeCalibration metric={m} onCalibrate={onCalibrate} />}
      </TableCell>
      {row.map((s, i) => (
        <TableCell key={names[i]} className="min-w-36">
          {s && s.mean !== null ? (
            <StatCell
              metric={m}
              stat={s}
              mean={s.mean}
              delta={names[i] === baseline ? undefined : base === null ? null : s.mean - base}
              lo={lo}
              hi={hi}
            />
          ) : (
            <span className="text-muted-foreground">—</span>
          )}
        </TableCell>
      ))}
    </TableRow>
  );
}

/** A variant's mean, its distance from the baseline (undefined on the baseline), spread and n. */
function StatCell({
  metric: m,
  stat: s,
  mean,
  delta,
  lo,
  hi,
}: {
  metric: Metric;
  stat: Stat;
  mean: number;
  delta: number | null | undefined;
  lo: number;
  hi: number;
}) {
  return (
    <div className="grid gap-0.5">
      <div className="flex items-baseline gap-2">
        <span className="font-semibold tabular-nums">{formatValue(m, mean)}</span>
        {delta !== undefined && <Delta metric={m} delta={delta} />}
      </div>
      <span className="text-muted-foreground text-xs tabular-nums">
        {spreadText(m, s)}n {s.n}
      </span>
      <IntervalBar stat={s} lo={lo} hi={hi} />
    </div>
  );
}
