"use client";

import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useId, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "@/components/ui/table";
import { type Experiment, type ExperimentCell, experimentsApi } from "@/lib/api/client";
import { shortId } from "@/lib/format/id";
import { formatValue, metricLabel } from "./matrix-table";

// The word diff comes with the first row opened, not with the page.
const AttemptDiff = dynamic(() => import("@/components/run/attempt-diff"), {
  ssr: false,
  loading: () => null,
});

const preview = (inputs: Record<string, unknown>) =>
  Object.values(inputs)
    .map((v) => (typeof v === "string" ? v : JSON.stringify(v)))
    .join(" · ");

/** Each row of the dataset: its inputs and each variant's score, then two outputs side by side. */
export function RowsDrilldown({
  crew,
  experiment: x,
  baseline,
}: {
  crew: string;
  experiment: Experiment;
  baseline: string;
}) {
  const cells = useQuery({
    // Keyed by progress: each cell scored (or skipped) is read once, the last ones too.
    queryKey: ["crews", crew, "experiments", x.id, "cells", x.progress.scored, x.progress.skipped],
    queryFn: () => experimentsApi(crew).cells(x.id),
    placeholderData: (previous) => previous,
  });
  const [open, setOpen] = useState<number | null>(null);
  const names = x.variants.map((v) => v.name);
  const metrics = x.matrix.metrics;
  // The score a person looks for first: the first scorer's, else whether runs completed.
  const lead =
    metrics.find((m) => !["completed", "latency_s", "tokens", "cost_usd"].includes(m.name)) ??
    metrics[0];
  const rows = [...new Set((cells.data?.cells ?? []).map((c) => c.row))];
  const of = (row: number, variant: string) =>
    (cells.data?.cells ?? []).filter((c) => c.row === row && c.variant === variant);
  const mean = (cs: ExperimentCell[]) => {
    const vs = cs.flatMap((c) =>
      lead && typeof c.scores[lead.name]?.value === "number"
        ? [c.scores[lead.name]?.value as number]
        : [],
    );
    return vs.length ? vs.reduce((a, b) => a + b, 0) / vs.length : null;
  };
  return (
    <section aria-labelledby="rows" className="grid gap-3">
      <h2 id="rows" className="m-0 font-semibold text-base">
        Rows
      </h2>
      {cells.error ? (
        <Alert tone="danger">{cells.error.message}</Alert>
      ) : !cells.data ? (
        <Skeleton className="h-24" aria-busy="true" />
      ) : (
        <>
          {cells.data.cells.length >= 2000 && (
            <Alert tone="info">
              The first 2,000 runs are shown here, by row; the matrix above counts them all.
            </Alert>
          )}
          <Table scrollLabel="Rows of the dataset" className="min-w-[32rem]">
            <TableHeader>
              <TableRow>
                <TableHead className="w-12">Row</TableHead>
                <TableHead>Inputs</TableHead>
                {names.map((n) => (
                  <TableHead key={n} className="text-right">
                    {n}
                    {lead ? <span className="sr-only"> {lead.name}</span> : null}
                  </TableHead>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row} data-state={open === row ? "selected" : undefined}>
                  <TableCell className="tabular-nums">{row}</TableCell>
                  <TableCell className="max-w-64">
                    <Button
                      size="sm"
                      variant="ghost"
                      className="-ml-2 h-auto max-w-full justify-start truncate py-1 text-left"
                      aria-expanded={open === row}
                      onClick={() => setOpen(open === row ? null : row)}
                    >
                      <span className="truncate">
                        {preview(of(row, names[0] ?? "")[0]?.inputs ?? {}) || `Row ${row}`}
                      </span>
                    </Button>
                  </TableCell>
                  {names.map((n) => (
                    <TableCell key={n} className="text-right tabular-nums">
                      {lead ? formatValue(lead, mean(of(row, n))) : "—"}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {open !== null && (
            <RowDetail
              crew={crew}
              cells={cells.data.cells.filter((c) => c.row === open)}
              names={names}
              baseline={baseline}
              metrics={metrics}
            />
          )}
        </>
      )}
    </section>
  );
}

function RowDetail({
  crew,
  cells,
  names,
  baseline,
  metrics,
}: {
  crew: string;
  cells: ExperimentCell[];
  names: string[];
  baseline: string;
  metrics: Experiment["matrix"]["metrics"];
}) {
  const [a, setA] = useState(baseline);
  const [b, setB] = useState(names.find((n) => n !== baseline) ?? baseline);
  const [repeat, setRepeat] = useState(1);
  const base = useId();
  const repeats = [...new Set(cells.map((c) => c.repeat))].sort((p, q) => p - q);
  const pick = (v: string) => cells.find((c) => c.variant === v && c.repeat === repeat);
  const [left, right] = [pick(a), pick(b)];
  // The run's final output, or any task's: the outputs each run kept, by task id.
  const [output, setOutput] = useState("result");
  const outputs = [...new Set(cells.flatMap((c) => Object.keys(c.outputs)))].filter(
    (k) => k !== "result",
  );
  const text = (c?: ExperimentCell) => c?.outputs[output] ?? "";
  const expected = Object.entries(cells[0]?.expected ?? {});
  return (
    <div className="grid gap-4 rounded-lg border p-4">
      <div className="flex flex-wrap items-end gap-3 text-sm">
        <label htmlFor={`${base}-a`} className="grid gap-1">
          Left
          <Select id={`${base}-a`} value={a} onChange={(e) => setA(e.target.value)}>
            {names.map((n) => (
              <option key={n}>{n}</option>
            ))}
          </Select>
        </label>
        <label htmlFor={`${base}-b`} className="grid gap-1">
          Right
          <Select id={`${base}-b`} value={b} onChange={(e) => setB(e.target.value)}>
            {names.map((n) => (
              <option key={n}>{n}</option>
            ))}
          </Select>
        </label>
        <label htmlFor={`${base}-r`} className="grid gap-1">
          Repeat
          <Select
            id={`${base}-r`}
            value={repeat}
            onChange={(e) => setRepeat(Number(e.target.value))}
          >
            {repeats.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </Select>
        </label>
        <label htmlFor={`${base}-o`} className="grid gap-1">
          Output
          <Select id={`${base}-o`} value={output} onChange={(e) => setOutput(e.target.value)}>
            <option value="result">Final output</option>
            {outputs.map((t) => (
              <option key={t} value={t}>
                Task {t}
              </option>
            ))}
          </Select>
        </label>
      </div>
      {left?.status === "scored" && right?.status === "scored" ? (
        <AttemptDiff before={text(left)} after={text(right)} beforeLabel={a} afterLabel={b} />
      ) : (
        <p className="m-0 text-muted-foreground text-sm">These runs have not both finished yet.</p>
      )}
      <div className="grid gap-3 md:grid-cols-2">
        {[left, right].map((c, i) => (
          <div key={i === 0 ? "left" : "right"} className="grid content-start gap-1 text-sm">
            <h3 className="m-0 font-medium text-sm">
              {i === 0 ? a : b}
              {c?.execution_id && (
                <Link
                  className="ml-2 font-mono text-muted-foreground text-xs underline"
                  href={`/crews/${encodeURIComponent(crew)}/runs/${c.execution_id}`}
                >
                  run {shortId(c.execution_id)}
                </Link>
              )}
            </h3>
            <ul className="m-0 grid list-none gap-1 p-0 text-xs">
              {metrics.map((m) => {
                const s = c?.scores[m.name];
                if (!s) return null;
                return (
                  <li key={m.name}>
                    <span className="font-medium">{metricLabel(m.name)}</span>{" "}
                    {formatValue(m, s.value)}
                    {s.reason &&
                      !["completed", "latency_s", "tokens", "cost_usd"].includes(m.name) && (
                        <span className="text-muted-foreground"> — {s.reason}</span>
                      )}
                  </li>
                );
              })}
            </ul>
          </div>
        ))}
      </div>
      {expected.length > 0 && (
        <details className="text-sm">
          <summary className="cursor-pointer text-muted-foreground">
            Expected outputs (approved by reviewers or given with the row)
          </summary>
          {expected.map(([task, out]) => (
            <div key={task} className="mt-2 grid gap-1">
              <span className="font-medium text-xs">{task}</span>
              <p className="m-0 whitespace-pre-wrap rounded-md bg-muted/50 p-2 text-xs">{out}</p>
            </div>
          ))}
        </details>
      )}
    </div>
  );
}
