"use client";

import { useId } from "react";
import { Hint, hintHost } from "@/components/ui/hint";
import { RelativeTime } from "@/components/ui/relative-time";
import { formatDuration } from "@/lib/format/duration";
import { formatCount, formatTokens, formatUsd } from "@/lib/format/numbers";
import type { RunMetrics } from "./run-metrics";
import type { RunStatus } from "./run-types";

function Figure({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid min-w-0 content-start gap-0.5">
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className="min-w-0 font-medium text-sm tabular-nums">{children}</dd>
    </div>
  );
}

function Sub({ children }: { children: React.ReactNode }) {
  return <span className="block font-normal text-muted-foreground text-xs">{children}</span>;
}

function Cost({ m }: { m: RunMetrics }) {
  const hint = useId();
  const offlineOnly = m.models.length > 0 && m.models.every((x) => x === "offline");
  // A cost is said one way everywhere (runs list, overview): in dollars, $0 when nothing is spent.
  if (offlineOnly || (m.usd === 0 && m.models.includes("offline")))
    return (
      <>
        {formatUsd(0)}
        <Sub>offline model, no cost</Sub>
      </>
    );
  if (m.usd === null) {
    const why = m.unpriced.length
      ? `No price is known for ${m.unpriced.join(", ")}: add one in Settings or MODEL_PRICES.`
      : "No price is known for the models used.";
    return (
      <span className={hintHost}>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: focus shows why there is no cost */}
        <span tabIndex={0} aria-describedby={hint} className="underline decoration-dotted">
          —
        </span>
        <Hint id={hint}>{why}</Hint>
      </span>
    );
  }
  return (
    <>
      {formatUsd(m.usd)}
      <Sub>{m.unpriced.length ? `estimate; ${m.unpriced.join(", ")} unpriced` : "estimate"}</Sub>
    </>
  );
}

/** The run's figures in one strip: when, how long (working vs waiting), tokens, cost, models. */
export function RunSummary({ status, metrics }: { status: RunStatus; metrics: RunMetrics }) {
  const ended = ["completed", "error", "cancelled"].includes(status.status);
  const endedAt = status.stopped_at ?? (ended ? status.updated_at : null);
  const m = metrics;
  return (
    <dl className="grid grid-cols-2 gap-x-6 gap-y-4 rounded-xl border bg-card p-4 sm:grid-cols-3 lg:grid-cols-6">
      <Figure label="Started">
        <RelativeTime iso={status.created_at} />
      </Figure>
      <Figure label="Ended">{endedAt ? <RelativeTime iso={endedAt} /> : "Still going"}</Figure>
      <Figure label="Duration">
        {formatDuration(m.totalSeconds)}
        <Sub>
          {formatDuration(m.workingSeconds)} working
          {m.reviewWaitSeconds > 0 && ` · ${formatDuration(m.reviewWaitSeconds)} in review`}
        </Sub>
      </Figure>
      <Figure label="Tokens">
        {m.tokens.input_tokens + m.tokens.output_tokens > 0 ? (
          <span
            title={`${formatCount(m.tokens.input_tokens)} in, ${formatCount(m.tokens.output_tokens)} out`}
          >
            {formatTokens(m.tokens.input_tokens)} in · {formatTokens(m.tokens.output_tokens)} out
          </span>
        ) : (
          "—"
        )}
      </Figure>
      <Figure label="Estimated cost">
        <Cost m={m} />
      </Figure>
      <Figure label={m.models.length > 1 ? "Models" : "Model"}>
        <span className="block truncate" title={m.models.join(", ")}>
          {m.models.length ? m.models.join(", ") : "—"}
        </span>
      </Figure>
    </dl>
  );
}
