"use client";

import { Check, X } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { Experiment } from "@/lib/api/client";
import { formatPercent } from "@/lib/format/numbers";
import { MetricRow } from "./matrix-row";

// Other views read values the way the matrix does.
export { formatValue, metricLabel } from "./matrix-format";

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
              <VariantHead key={n} name={n} baseline={baseline} onBaseline={onBaseline} />
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {x.matrix.metrics.map((m) => (
            <MetricRow
              key={m.name}
              metric={m}
              names={names}
              baseline={baseline}
              stat={stat}
              onCalibrate={onCalibrate}
            />
          ))}
        </TableBody>
      </Table>
    </section>
  );
}

/** A variant's column head: the baseline says so, any other can be picked as it. */
function VariantHead({
  name: n,
  baseline,
  onBaseline,
}: {
  name: string;
  baseline: string;
  onBaseline: (v: string) => void;
}) {
  return (
    <TableHead>
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
