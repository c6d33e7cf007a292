"use client";

import dynamic from "next/dynamic";
import Link from "next/link";
import { type ReactNode, useId, useState } from "react";
import { Select } from "@/components/ui/input";
import type { Experiment, ExperimentCell } from "@/lib/api/client";
import { shortId } from "@/lib/format/id";
import { formatValue, metricLabel } from "./matrix-table";
import { isBuiltIn, repeatsOf, taskOutputs } from "./rows-model";

// The word diff comes with the first row opened, not with the page.
const AttemptDiff = dynamic(() => import("@/components/run/attempt-diff"), {
  ssr: false,
  loading: () => null,
});

type Metrics = Experiment["matrix"]["metrics"];

/** One row opened: two variants' outputs side by side (a diff when both finished), their scores. */
export function RowDetail({
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
  metrics: Metrics;
}) {
  const [a, setA] = useState(baseline);
  const [b, setB] = useState(names.find((n) => n !== baseline) ?? baseline);
  const [repeat, setRepeat] = useState(1);
  // The run's final output, or any task's: the outputs each run kept, by task id.
  const [output, setOutput] = useState("result");
  const base = useId();
  const pick = (v: string) => cells.find((c) => c.variant === v && c.repeat === repeat);
  const [left, right] = [pick(a), pick(b)];
  const text = (c?: ExperimentCell) => c?.outputs[output] ?? "";
  const variants = names.map((n) => <option key={n}>{n}</option>);
  return (
    <div className="grid gap-4 rounded-lg border p-4">
      <div className="flex flex-wrap items-end gap-3 text-sm">
        <Picker id={`${base}-a`} label="Left" value={a} onChange={setA}>
          {variants}
        </Picker>
        <Picker id={`${base}-b`} label="Right" value={b} onChange={setB}>
          {variants}
        </Picker>
        <Picker
          id={`${base}-r`}
          label="Repeat"
          value={repeat}
          onChange={(r) => setRepeat(Number(r))}
        >
          {repeatsOf(cells).map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </Picker>
        <Picker id={`${base}-o`} label="Output" value={output} onChange={setOutput}>
          <option value="result">Final output</option>
          {taskOutputs(cells).map((t) => (
            <option key={t} value={t}>
              Task {t}
            </option>
          ))}
        </Picker>
      </div>
      {left?.status === "scored" && right?.status === "scored" ? (
        <AttemptDiff before={text(left)} after={text(right)} beforeLabel={a} afterLabel={b} />
      ) : (
        <p className="m-0 text-muted-foreground text-sm">These runs have not both finished yet.</p>
      )}
      <div className="grid gap-3 md:grid-cols-2">
        <CellScores key="left" crew={crew} variant={a} cell={left} metrics={metrics} />
        <CellScores key="right" crew={crew} variant={b} cell={right} metrics={metrics} />
      </div>
      <ExpectedOutputs expected={Object.entries(cells[0]?.expected ?? {})} />
    </div>
  );
}

function Picker({
  id,
  label,
  value,
  onChange,
  children,
}: {
  id: string;
  label: string;
  value: string | number;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  return (
    <label htmlFor={id} className="grid gap-1">
      {label}
      <Select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {children}
      </Select>
    </label>
  );
}

/** One side: its variant, a link to its run, and each score (a scorer's with its reason). */
function CellScores({
  crew,
  variant,
  cell: c,
  metrics,
}: {
  crew: string;
  variant: string;
  cell: ExperimentCell | undefined;
  metrics: Metrics;
}) {
  return (
    <div className="grid content-start gap-1 text-sm">
      <h3 className="m-0 font-medium text-sm">
        {variant}
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
              <span className="font-medium">{metricLabel(m.name)}</span> {formatValue(m, s.value)}
              {s.reason && !isBuiltIn(m.name) && (
                <span className="text-muted-foreground"> — {s.reason}</span>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function ExpectedOutputs({ expected }: { expected: [string, string][] }) {
  if (!expected.length) return null;
  return (
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
  );
}
