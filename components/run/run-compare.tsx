"use client";

import dynamic from "next/dynamic";
import Link from "next/link";
import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn";
import { StatusPill } from "@/components/ui/status-pill";
import { formatDuration } from "@/lib/format/duration";
import { shortId } from "@/lib/format/id";
import { formatTokens, formatUsd } from "@/lib/format/numbers";
import type { RunStatus } from "./run-types";

// The word diff comes with the page's first differing output, not with every page.
const AttemptDiff = dynamic(() => import("./attempt-diff"), {
  ssr: false,
  loading: () => null,
});

const show = (v: unknown) =>
  v === null || v === undefined || v === ""
    ? "—"
    : typeof v === "string"
      ? v
      : typeof v === "boolean"
        ? v
          ? "Yes"
          : "No"
        : JSON.stringify(v);

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
  const href = (id: string) => `/crews/${encodeURIComponent(crew)}/runs/${id}`;
  const inputs = [...new Set([...Object.keys(a.inputs ?? {}), ...Object.keys(b.inputs ?? {})])];
  const taskIds = [...new Set([...a.tasks, ...b.tasks].map((t) => t.task_id))];
  const label = (r: RunStatus) => `Run ${shortId(r.kickoff_id)}`;
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
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
              {inputs.map((k) => (
                <Row key={k} name={k} a={show(a.inputs?.[k])} b={show(b.inputs?.[k])} />
              ))}
              <Row
                name="Models"
                a={a.cost.models.join(", ") || "—"}
                b={b.cost.models.join(", ") || "—"}
              />
              <Row
                name="Tokens"
                a={`${formatTokens(a.token_usage.input_tokens)} in · ${formatTokens(a.token_usage.output_tokens)} out`}
                b={`${formatTokens(b.token_usage.input_tokens)} in · ${formatTokens(b.token_usage.output_tokens)} out`}
              />
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
      {taskIds.map((id) => {
        const [ta, tb] = [a, b].map((r) => r.tasks.find((t) => t.task_id === id));
        const name = ta?.name ?? tb?.name ?? id;
        const same = (ta?.output ?? "") === (tb?.output ?? "");
        return (
          <section
            key={id}
            aria-labelledby={`compare-${id}`}
            className="grid min-w-0 gap-3 rounded-xl border bg-card p-4"
          >
            <h2 id={`compare-${id}`} className="m-0 font-semibold text-base">
              {name}
            </h2>
            <div className="grid gap-2 text-sm sm:grid-cols-2">
              {[ta, tb].map((t, i) => (
                <p
                  // biome-ignore lint/suspicious/noArrayIndexKey: the two sides, in order
                  key={i}
                  className="m-0 flex flex-wrap items-center gap-2 text-muted-foreground"
                >
                  {/* Stacked on a phone: each line says whose it is. */}
                  <span className="font-mono text-foreground text-xs">
                    {shortId([a, b][i]?.kickoff_id ?? "")}
                  </span>
                  {t ? <StatusPill status={t.status} /> : "Not in this run"}
                  {t && <span>{formatDuration(t.execution_time)}</span>}
                  {t && <span>{formatTokens(t.token_usage.total_tokens)} tokens</span>}
                  {t?.edited_by && <span>edited by {t.edited_by}</span>}
                </p>
              ))}
            </div>
            {same ? (
              <p className="m-0 text-muted-foreground text-sm">
                {ta?.output ? "The same output in both runs." : "No output in either run."}
              </p>
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
      })}
    </div>
  );
}
