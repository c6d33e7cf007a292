"use client";

import { useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { type FormEvent, useState } from "react";
import { ErrorText } from "@/components/error-text";
import { runsApi } from "@/lib/api/client";
import { EXECUTION_STATUSES } from "@/lib/runs/states";

const FILTERS = ["crew", "deployment", "status", "person", "from", "to", "q"] as const;

const duration = (from: string | null, to: string | null) => {
  if (!from) return "–";
  const s = ((to ? Date.parse(to) : Date.now()) - Date.parse(from)) / 1000;
  return s < 60 ? `${s.toFixed(1)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
};
const short = (inputs: Record<string, unknown>) => {
  const text = Object.entries(inputs)
    .map(([k, v]) => `${k}: ${String(v)}`)
    .join(" · ");
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
};

/** Every run, filtered and paginated on the server, refreshed every 3 s so statuses move live. */
export function RunsTable({
  crews,
  deployments,
}: {
  crews: { slug: string; name: string }[];
  deployments: { slug: string; name: string }[];
}) {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const filters = Object.fromEntries(
    [...search.entries()].filter(
      ([k, v]) => (v && (FILTERS as readonly string[]).includes(k)) || k === "cursor",
    ),
  );
  const [draft, setDraft] = useState<Record<string, string>>(filters);
  const { data, error, isPending, isPlaceholderData } = useQuery({
    queryKey: ["runs", filters],
    queryFn: () => runsApi.list(filters),
    refetchInterval: 3_000,
    placeholderData: (previous) => previous,
  });

  const go = (next: Record<string, string>) => {
    const params = new URLSearchParams(Object.entries(next).filter(([, v]) => v));
    router.replace(`${pathname}?${params}`);
  };
  const apply = (e: FormEvent) => {
    e.preventDefault();
    go({ ...draft, cursor: "" });
  };
  const field = (name: string) => ({
    id: `filter-${name}`,
    value: draft[name] ?? "",
    onChange: (e: { target: { value: string } }) =>
      setDraft((d) => ({ ...d, [name]: e.target.value })),
  });

  return (
    <>
      <form className="filters" onSubmit={apply} aria-label="Filter runs">
        <div>
          <label htmlFor="filter-crew">Crew</label>
          <select {...field("crew")}>
            <option value="">All crews</option>
            {crews.map((c) => (
              <option key={c.slug} value={c.slug}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        {deployments.length > 0 && (
          <div>
            <label htmlFor="filter-deployment">Deployment</label>
            <select {...field("deployment")}>
              <option value="">All</option>
              <option value="local">This Crewdeck</option>
              {deployments.map((d) => (
                <option key={d.slug} value={d.slug}>
                  {d.name}
                </option>
              ))}
            </select>
          </div>
        )}
        <div>
          <label htmlFor="filter-status">Status</label>
          <select {...field("status")}>
            <option value="">Any status</option>
            {EXECUTION_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.replaceAll("_", " ")}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="filter-person">Started by</label>
          <input type="email" placeholder="email" {...field("person")} />
        </div>
        <div>
          <label htmlFor="filter-from">From</label>
          <input type="date" {...field("from")} />
        </div>
        <div>
          <label htmlFor="filter-to">To</label>
          <input type="date" {...field("to")} />
        </div>
        <div>
          <label htmlFor="filter-q">Search</label>
          <input type="search" placeholder="kickoff id or input text" {...field("q")} />
        </div>
        <div className="filter-actions">
          <button type="submit" className="primary">
            Filter
          </button>
          <button
            type="button"
            onClick={() => {
              setDraft({});
              go({});
            }}
          >
            Clear
          </button>
        </div>
      </form>
      <p aria-live="polite" className="muted small">
        {isPlaceholderData ? "Updating…" : ""}
      </p>
      {error && <ErrorText>Could not load runs: {error.message}</ErrorText>}
      {isPending && !data && (
        <p className="muted" aria-busy="true">
          Loading runs…
        </p>
      )}
      {data && data.runs.length === 0 && (
        <p className="muted">No runs match. Start one from a crew's page.</p>
      )}
      {data && data.runs.length > 0 && (
        <div className="table-wrap">
          <table aria-label="Runs">
            <thead>
              <tr>
                <th scope="col">Crew</th>
                <th scope="col">Deployment</th>
                <th scope="col">Status</th>
                <th scope="col">Started by</th>
                <th scope="col">Started</th>
                <th scope="col">Duration</th>
                <th scope="col">Inputs</th>
              </tr>
            </thead>
            <tbody>
              {data.runs.map((r) => (
                <tr key={r.id}>
                  <td>
                    <a href={`/crews/${r.crew}/runs/${r.id}`}>{r.crew}</a>
                  </td>
                  <td>{r.crew.startsWith("@") ? r.crew.slice(1) : "local"}</td>
                  <td>
                    <span className={`status status-${r.status}`}>
                      {r.status.replaceAll("_", " ")}
                    </span>
                  </td>
                  <td>{r.started_by?.name ?? "API (organization token)"}</td>
                  <td>
                    <time dateTime={r.created_at}>{new Date(r.created_at).toLocaleString()}</time>
                  </td>
                  <td>{duration(r.started_at, r.finished_at)}</td>
                  <td className="muted">{short(r.inputs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data && (data.next_cursor || data.prev_cursor) && (
        <nav className="pager" aria-label="Pages">
          <button
            type="button"
            disabled={!data.prev_cursor}
            onClick={() => go({ ...filters, cursor: data.prev_cursor ?? "" })}
          >
            Newer
          </button>
          <span>
            {data.total_capped ? `${data.total.toLocaleString()}+` : data.total.toLocaleString()}{" "}
            runs
          </span>
          <button
            type="button"
            disabled={!data.next_cursor}
            onClick={() => go({ ...filters, cursor: data.next_cursor ?? "" })}
          >
            Older
          </button>
        </nav>
      )}
    </>
  );
}
