"use client";

import { ChevronLeft, ChevronRight, ListFilter, Play } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { formatCount } from "@/lib/format/numbers";

type Total = { total: number; total_capped?: boolean };

export function LoadingRuns() {
  return (
    <div className="grid gap-2" aria-busy="true">
      <span className="sr-only">Loading runs…</span>
      {[0, 1, 2, 3, 4].map((i) => (
        <Skeleton key={i} className="h-11" />
      ))}
    </div>
  );
}

/** An empty page that the filters made: how many runs they hide, when known. */
export function NoMatch({ hidden, clear }: { hidden: Total | undefined; clear: () => void }) {
  return (
    <EmptyState
      icon={ListFilter}
      title="No runs match these filters"
      action={<Button onClick={clear}>Clear filters</Button>}
    >
      {hidden
        ? `${formatCount(hidden.total)}${hidden.total_capped ? "+" : ""} runs exist; these filters hide every one.`
        : "These filters hide every run."}{" "}
      Widen the dates, pick another status, or clear them.
    </EmptyState>
  );
}

/** No run at all yet, and where to start one; `children` says what the page will show. */
export function NoRunsYet({ children }: { children: ReactNode }) {
  return (
    <EmptyState
      icon={Play}
      title="No runs yet"
      action={
        <Button asChild variant="primary">
          <Link href="/crews">Start a run from a crew</Link>
        </Button>
      }
    >
      {children}
    </EmptyState>
  );
}

/** How many runs of how many, and the newer and older pages. */
export function Pager({
  shown,
  page,
  data,
}: {
  shown: number;
  page: (cursor: string) => void;
  data: Total & { prev_cursor?: string | null; next_cursor?: string | null };
}) {
  return (
    <nav aria-label="Pages" className="flex items-center justify-between gap-3">
      <p className="text-muted-foreground text-sm tabular-nums">
        {formatCount(shown)} of {formatCount(data.total)}
        {data.total_capped ? "+" : ""} {data.total === 1 ? "run" : "runs"}
      </p>
      <div className="flex gap-2">
        <Button
          size="sm"
          disabled={!data.prev_cursor}
          onClick={() => data.prev_cursor && page(data.prev_cursor)}
        >
          <ChevronLeft aria-hidden />
          Newer
        </Button>
        <Button
          size="sm"
          disabled={!data.next_cursor}
          onClick={() => data.next_cursor && page(data.next_cursor)}
        >
          Older
          <ChevronRight aria-hidden />
        </Button>
      </div>
    </nav>
  );
}
