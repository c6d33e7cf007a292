import Link from "next/link";
import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn";
import type { RunStats } from "@/lib/api/client";
import { formatDuration } from "@/lib/format/duration";
import { formatCount, formatPercent, formatTokens, formatUsd } from "@/lib/format/numbers";

/** One figure as a card (a link when it leads somewhere): label, value, a line below. */
export function Stat({
  label,
  value,
  sub,
  href,
  tone,
}: {
  label: string;
  value: string;
  sub?: ReactNode;
  href?: string;
  tone?: "warning" | "danger";
}) {
  const body = (
    <>
      <span className="text-muted-foreground text-xs">{label}</span>
      <span
        className={cn(
          "font-semibold text-2xl tabular-nums tracking-tight",
          tone === "warning" && "text-tone-warning-foreground",
          tone === "danger" && "text-tone-danger-foreground",
        )}
      >
        {value}
      </span>
      {sub && <span className="truncate text-muted-foreground text-xs">{sub}</span>}
    </>
  );
  const box = "grid min-w-0 gap-1 rounded-xl border bg-card p-4 shadow-xs";
  return (
    <li className="grid">
      {href ? (
        <Link
          href={href}
          className={cn(box, "text-card-foreground transition-colors hover:border-ring")}
        >
          {body}
        </Link>
      ) : (
        <div className={box}>{body}</div>
      )}
    </li>
  );
}

/** The few numbers that matter, each once: what needs a person now, then the window's health. */
export function StatCards({ stats }: { stats: RunStats }) {
  const t = stats.totals;
  const days = stats.window_days;
  const tokens = t.input_tokens + t.output_tokens;
  return (
    <ul aria-label="Key figures" className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
      <Stat
        label="Awaiting review"
        value={formatCount(stats.awaiting_review)}
        sub={stats.awaiting_review ? "Open the inbox →" : "Nothing waiting"}
        href="/inbox"
        tone={stats.awaiting_review ? "warning" : undefined}
      />
      <Stat
        label="Running now"
        value={formatCount(stats.running)}
        sub="Queued or running"
        href="/runs?status=running"
      />
      <Stat
        label={`Runs · ${days} d`}
        value={formatCount(t.runs)}
        sub={`${formatCount(t.completed)} completed`}
        href="/runs"
      />
      <Stat
        label="Failure rate"
        value={formatPercent(t.failure_rate)}
        sub={`${formatCount(t.failed)} failed · ${formatCount(t.stopped)} stopped`}
        tone={t.failure_rate && t.failure_rate >= 0.2 ? "danger" : undefined}
      />
      <Stat
        label="p95 duration"
        value={formatDuration(t.p95_seconds)}
        sub={`p50 ${formatDuration(t.p50_seconds)}`}
      />
      <Stat
        label={`Est. cost · ${days} d`}
        value={formatUsd(t.cost_usd)}
        sub={`${formatTokens(tokens)} tokens`}
      />
    </ul>
  );
}
