"use client";

import { useQuery } from "@tanstack/react-query";
import { History } from "lucide-react";
import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { EmptyState } from "@/components/ui/empty-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { Skeleton } from "@/components/ui/skeleton";
import { StatusPill } from "@/components/ui/status-pill";
import { runsApi } from "@/lib/api/client";
import { formatDuration, secondsBetween } from "@/lib/format/duration";
import { shortId } from "@/lib/format/id";

/** This crew's latest runs, live: status, id, when it started and how long it took. */
export function RecentRuns({ crew, blocked = false }: { crew: string; blocked?: boolean }) {
  const { data, error } = useQuery({
    queryKey: ["runs", "list", { crew, per_page: "10" }],
    queryFn: () => runsApi.list({ crew, per_page: "10" }),
    refetchInterval: 5_000,
  });
  if (error)
    return (
      <Alert tone="danger" title="Could not load this crew's runs">
        {error.message} It retries on its own.
      </Alert>
    );
  if (!data)
    return (
      <div className="grid gap-2" aria-busy="true">
        <Skeleton className="h-10" />
        <Skeleton className="h-10" />
      </div>
    );
  if (data.runs.length === 0)
    return (
      <EmptyState icon={History} title="No runs yet">
        {blocked
          ? "Its runs are listed here once it can run: see what it needs above."
          : "Start this crew's first run and it will be listed here."}
      </EmptyState>
    );
  return (
    <div className="grid gap-2">
      <ul className="divide-y rounded-lg border">
        {data.runs.map((r) => (
          <li key={r.id}>
            <Link
              href={`/crews/${r.crew}/runs/${r.id}`}
              className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-foreground text-sm hover:bg-muted"
            >
              <StatusPill status={r.status} />
              <code className="font-mono text-xs">{shortId(r.id)}</code>
              <span className="ml-auto flex items-center gap-3 text-muted-foreground text-xs">
                <RelativeTime iso={r.created_at} />
                <span className="w-16 text-right tabular-nums">
                  {formatDuration(
                    r.duration_seconds ??
                      (r.status === "running" ? secondsBetween(r.started_at, null) : null),
                  )}
                </span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <Link
        href={`/runs?crew=${encodeURIComponent(crew)}`}
        className="justify-self-start text-link text-sm hover:underline"
      >
        All runs of this crew
      </Link>
    </div>
  );
}
