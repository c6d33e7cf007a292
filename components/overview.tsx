"use client";

import { useQuery } from "@tanstack/react-query";
import { ErrorText } from "@/components/error-text";
import { type RunStats, type RunsPage, runsApi } from "@/lib/api/client";

function RunList({
  title,
  runs,
  empty,
}: {
  title: string;
  runs: RunsPage["runs"] | undefined;
  empty: string;
}) {
  return (
    <section className="card">
      <h2 style={{ marginTop: 0 }}>{title}</h2>
      {!runs && (
        <p className="muted" aria-busy="true">
          Loading…
        </p>
      )}
      {runs?.length === 0 && <p className="muted">{empty}</p>}
      <ul>
        {runs?.map((r) => (
          <li key={r.id}>
            <a href={`/crews/${r.crew}/runs/${r.id}`}>{r.crew}</a>{" "}
            <span className="muted small">
              {new Date(r.created_at).toLocaleString()}
              {r.pending_human_input && ` · ${r.pending_human_input.task_id}`}
              {r.error && ` · ${r.error}`}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

const OUTCOMES = [
  ["completed", "#16a34a"],
  ["error", "#dc2626"],
  ["cancelled", "#9ca3af"],
  ["other", "#2563eb"],
] as const;

/** Runs per day by outcome (stacked bars) over the last 14 days. */
function RunsChart({ days }: { days: RunStats["days"] }) {
  const max = Math.max(1, ...days.map((d) => d.completed + d.error + d.cancelled + d.other));
  const w = 24;
  return (
    <figure>
      <svg
        viewBox={`0 0 ${days.length * w} 110`}
        role="img"
        aria-label="Runs per day for the last 14 days, by outcome"
        className="chart"
      >
        {days.map((d, i) => {
          let y = 100;
          return (
            <g key={d.day}>
              <title>{`${d.day}: ${d.completed} completed, ${d.error} failed, ${d.cancelled} stopped, ${d.other} in progress`}</title>
              {OUTCOMES.map(([key, color]) => {
                const h = (d[key] / max) * 95;
                y -= h;
                return h > 0 ? (
                  <rect key={key} x={i * w + 3} y={y} width={w - 6} height={h} fill={color} />
                ) : null;
              })}
            </g>
          );
        })}
      </svg>
      <figcaption className="muted small">
        Runs per day, last 14 days —{" "}
        {OUTCOMES.map(([k, c]) => (
          <span key={k}>
            <span className="swatch" style={{ background: c }} /> {k}{" "}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

/** Average duration of completed runs per day. */
function DurationChart({ days }: { days: RunStats["days"] }) {
  const max = Math.max(1, ...days.map((d) => d.avg_seconds ?? 0));
  const w = 24;
  return (
    <figure>
      <svg
        viewBox={`0 0 ${days.length * w} 110`}
        role="img"
        aria-label="Average duration of completed runs per day"
        className="chart"
      >
        {days.map((d, i) => {
          const h = ((d.avg_seconds ?? 0) / max) * 95;
          return (
            <g key={d.day}>
              <title>{`${d.day}: ${d.avg_seconds === null ? "no completed runs" : `${d.avg_seconds.toFixed(1)} s on average`}`}</title>
              <rect x={i * w + 3} y={100 - h} width={w - 6} height={h} fill="#6366f1" />
            </g>
          );
        })}
      </svg>
      <figcaption className="muted small">
        Average duration of completed runs (longest day: {max.toFixed(1)} s)
      </figcaption>
    </figure>
  );
}

export function Overview() {
  const opts = { refetchInterval: 5_000 };
  const stats = useQuery({ queryKey: ["stats"], queryFn: runsApi.stats, ...opts });
  const review = useQuery({
    queryKey: ["runs", "review"],
    queryFn: () => runsApi.list({ status: "pending_human_input", per_page: "10" }),
    ...opts,
  });
  const running = useQuery({
    queryKey: ["runs", "running"],
    queryFn: () => runsApi.list({ status: "running", per_page: "10" }),
    ...opts,
  });
  const failed = useQuery({
    queryKey: ["runs", "failed"],
    queryFn: () => runsApi.list({ status: "error", per_page: "5" }),
    ...opts,
  });
  return (
    <>
      {stats.error && <ErrorText>Could not load the overview: {stats.error.message}</ErrorText>}
      <div className="tiles">
        <a className="tile" href="/inbox">
          <strong>{stats.data?.awaiting_review ?? "…"}</strong> awaiting review
        </a>
        <a className="tile" href="/runs?status=running">
          <strong>{stats.data?.running ?? "…"}</strong> running now
        </a>
      </div>
      <div className="columns">
        <RunList title="Awaiting review" runs={review.data?.runs} empty="Nothing to review." />
        <RunList title="Running now" runs={running.data?.runs} empty="Nothing running." />
        <RunList title="Recent failures" runs={failed.data?.runs} empty="No failures." />
      </div>
      {stats.data?.days.every((d) => d.completed + d.error + d.cancelled + d.other === 0) && (
        <p className="muted">No runs in the last 14 days: the charts appear once there are some.</p>
      )}
      {stats.data?.days.some((d) => d.completed + d.error + d.cancelled + d.other > 0) && (
        <div className="columns">
          <section className="card">
            <RunsChart days={stats.data.days} />
          </section>
          <section className="card">
            <DurationChart days={stats.data.days} />
          </section>
        </div>
      )}
    </>
  );
}
