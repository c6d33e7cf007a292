"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { RelativeTime } from "@/components/ui/relative-time";
import { StatusPill } from "@/components/ui/status-pill";
import { crewApi } from "@/lib/api/client";
import { shortId } from "@/lib/format/id";
import type { RunStatus } from "./run-types";

const KIND = { rerun: "Re-run", fork: "Fork" } as const;

/**
 * Where this run came from (a re-run's origin) and the runs started again from it, each with its
 * state and the inputs it changed; nothing when neither.
 */
export function RunLineage({ crew, status }: { crew: string; status: RunStatus }) {
  const href = (id: string) => `/crews/${encodeURIComponent(crew)}/runs/${id}`;
  const compare = (a: string, b: string) =>
    `/crews/${encodeURIComponent(crew)}/compare?a=${a}&b=${b}`;
  const { data } = useQuery({
    queryKey: ["runs", "reruns", crew, status.kickoff_id],
    queryFn: () => crewApi(crew).reruns(status.kickoff_id),
    refetchInterval: 10_000,
  });
  const reruns = data?.reruns ?? [];
  const origin = status.origin;
  if (!origin && !reruns.length) return null;
  return (
    <section aria-labelledby="lineage-title" className="grid gap-2 border-t pt-3">
      <h3 id="lineage-title" className="m-0 font-medium text-sm">
        {reruns.length ? "Re-runs" : "Origin"}
      </h3>
      {origin && (
        <p className="m-0 text-sm">
          {KIND[origin.kind]} of{" "}
          <Link
            href={href(origin.execution_id)}
            className="font-mono text-link text-xs hover:underline"
          >
            {shortId(origin.execution_id)}
          </Link>{" "}
          ·{" "}
          <Link
            href={compare(origin.execution_id, status.kickoff_id)}
            className="text-link hover:underline"
          >
            Compare with it
          </Link>
        </p>
      )}
      {reruns.length > 0 && (
        <ul className="m-0 grid list-none gap-2 p-0 text-sm">
          {reruns.map((r) => (
            <li key={r.execution_id} className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <Link
                href={href(r.execution_id)}
                className="font-mono text-link text-xs hover:underline"
              >
                {shortId(r.execution_id)}
              </Link>
              <StatusPill status={r.status} />
              <span className="text-muted-foreground text-xs">
                {r.changed_inputs.length ? `changed ${r.changed_inputs.join(", ")}` : "same inputs"}{" "}
                · <RelativeTime iso={r.created_at} /> ·{" "}
                <Link
                  href={compare(status.kickoff_id, r.execution_id)}
                  className="text-link hover:underline"
                >
                  Compare
                </Link>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
