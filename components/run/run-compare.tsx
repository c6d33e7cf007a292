"use client";

import dynamic from "next/dynamic";
import Link from "next/link";
import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn";
import { StatusPill } from "@/components/ui/status-pill";
import { formatDuration } from "@/lib/format/duration";
import { shortId } from "@/lib/format/id";
import { formatTokens, formatUsd } from "@/lib/format/numbers";
import { inputNames, sameOutputNote, show, taskIdsOf } from "./run-compare-model";
import type { RunStatus, TaskWithUsage } from "./run-types";

// The word diff comes with the page's first differing output, not with every page.
const AttemptDiff = dynamic(() => import("./attempt-diff"), {
  ssr: false,
  loading: () => null,
});

/** One row of the summary: its name, the two values, marked when they differ. */
function Row({ name, a, b }: { name: string; a: ReactNode; b: ReactNode }) {
  const differs = typeof a === "string" && typeof b === "string" && a !== b;
  return (
    <tr className="border-t align-top">
      <th scope="row" className="py-2 pr-3 text-left font-normal text-muted-foreground">
        {name}
        {differs && <span className="sr-only"> (differs)</span>}
      </th>
      {[a, b].map((v, i) => (
        <td
          // biome-ignore lint/suspicious/noArrayIndexKey: the two sides, in order
          key={i}
          className={cn(
            "min-w-0 break-words px-2 py-2 tabular-nums sm:px-3",
            differs && "bg-tone-warning/40",
          )}
        >
          {v}
        </td>
      ))}
    </tr>
  );
}

/**
 * Two runs of a crew side by side: inputs, models, tokens, cost, time, then each task's state,
 * time, tokens, whether a reviewer edited it, and its output (the word diff where they differ).
 */
export function RunCompare({ crew, a, b }: { crew: string; a: RunStatus; b: RunStatus }) {
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <CompareSummary crew={crew} a={a} b={b} />
      {taskIdsOf(a, b).map((id) => (
        <TaskCompare key={id} id={id} a={a} b={b} />
      ))}
    </div>
  );
}

const label = (r: RunStatus) => `Run ${shortId(r.kickoff_id)}`;
const tokens = (r: RunStatus) =>
  `${formatTokens(r.token_usage.input_tokens)} in · ${formatTokens(r.token_usage.output_tokens)} out`;

/** The two runs' inputs, models, tokens, cost and time, each run linked above its column. */
function CompareSummary({ crew, a, b }: { crew: string; a: RunStatus; b: RunStatus }) {
  const href = (id: string) => `/crews/${encodeURIComponent(crew)}/runs/${id}`;
  return (
    <section aria-labelledby="compare-summary" className="min-w-0 rounded-xl border bg-card p-4">
      <h2 id="compare-summary" className="m-0 mb-2 font-semibold text-base">
        Summary
      </h2>
      <div>
        <table className="w-full table-fixed text-sm">
          <colgroup>
            <col className="w-24 sm:w-36" />
            <col />
            <col />
          </colgroup>
          <thead>
            <tr>
              <td />
              {[a, b].map((r) => (
                <th
                  key={r.kickoff_id}
                  scope="col"
                  className="px-2 pb-2 text-left font-medium sm:px-3"
                >
                  <Link
                    href={href(r.kickoff_id)}
                    className="font-mono text-link text-xs hover:underline"
                  >
                    {label(r)}
                  </Link>{" "}
                  <StatusPill status={r.status} />
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {inputNames(a, b).map((k) => (
              <Row key={k} name={k} a={show(a.inputs?.[k])} b={show(b.inputs?.[k])} />
            ))}
            <Row
              name="Models"
              a={a.cost.models.join(", ") || "—"}
              b={b.cost.models.join(", ") || "—"}
            />
            <Row name="Tokens" a={tokens(a)} b={tokens(b)} />
            <Row name="Estimated cost" a={formatUsd(a.cost.usd)} b={formatUsd(b.cost.usd)} />
            <Row
              name="Duration"
              a={formatDuration(a.execution_time)}
              b={formatDuration(b.execution_time)}
            />
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** One task in both runs: each side's facts, then its output, or the word diff where they differ. */
function TaskCompare({ id, a, b }: { id: string; a: RunStatus; b: RunStatus }) {
  const [ta, tb] = [a, b].map((r) => r.tasks.find((t) => t.task_id === id));
  const note = sameOutputNote(ta, tb);
  return (
    <section
      aria-labelledby={`compare-${id}`}
      className="grid min-w-0 gap-3 rounded-xl border bg-card p-4"
    >
      <h2 id={`compare-${id}`} className="m-0 font-semibold text-base">
        {ta?.name ?? tb?.name ?? id}
      </h2>
      <div className="grid gap-2 text-sm sm:grid-cols-2">
        {[ta, tb].map((t, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the two sides, in order
          <TaskFacts key={i} runId={[a, b][i]?.kickoff_id ?? ""} task={t} />
        ))}
      </div>
      {note !== null ? (
        <p className="m-0 text-muted-foreground text-sm">{note}</p>
      ) : (
        <AttemptDiff
          before={ta?.output ?? ""}
          after={tb?.output ?? ""}
          beforeLabel={label(a)}
          afterLabel={label(b)}
        />
      )}
    </section>
  );
}

function TaskFacts({ runId, task: t }: { runId: string; task: TaskWithUsage | undefined }) {
  return (
    <p className="m-0 flex flex-wrap items-center gap-2 text-muted-foreground">
      {/* Stacked on a phone: each line says whose it is. */}
      <span className="font-mono text-foreground text-xs">{shortId(runId)}</span>
      {t ? <StatusPill status={t.status} /> : "Not in this run"}
      {t && <span>{formatDuration(t.execution_time)}</span>}
      {t && <span>{formatTokens(t.token_usage.total_tokens)} tokens</span>}
      {t?.edited_by && <span>edited by {t.edited_by}</span>}
    </p>
  );
}
