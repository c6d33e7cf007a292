"use client";

import dynamic from "next/dynamic";
import { useRef, useState } from "react";
import { Skeleton } from "@/components/ui/skeleton";
import type { StatusResponse } from "@/lib/contract/status";
import { DETAIL_PANE } from "./detail-pane";
import { RunInputs } from "./run-inputs";
import { RunLineage } from "./run-lineage";
import type { Trace } from "./trace-types";
import { Waterfall } from "./waterfall";
import type { Selection } from "./waterfall-model";

// What a step did comes with the first selection: most of the page's first view is the trace.
const StepDetail = dynamic(() => import("./step-detail").then((m) => m.StepDetail), {
  ssr: false,
  loading: () => (
    <div className={DETAIL_PANE}>
      <Skeleton className="h-40 w-full" />
    </div>
  ),
});

/** The waterfall and, beside it (below on narrow screens), what the selected row did. */
export function RunTracePane({
  crew,
  trace,
  status,
  now,
  active,
  initialTask,
  fork,
}: {
  crew: string;
  trace: Trace;
  status: StatusResponse;
  now: number;
  active: boolean;
  initialTask?: string;
  fork: { crew: string; runId: string; path?: string[] } | undefined;
}) {
  const { selection, select, clear, detailRef } = useSelection(initialTask);
  const inputs = (
    <RunInputs inputs={status.inputs}>
      <RunLineage crew={crew} status={status} />
    </RunInputs>
  );
  return (
    <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <Waterfall trace={trace} now={now} follow={active} selected={selection} onSelect={select} />
      <div ref={detailRef} className="min-w-0 scroll-mt-4">
        {selection ? (
          <StepDetail
            trace={trace}
            selection={selection}
            tasks={status.tasks}
            now={now}
            onClose={clear}
            fork={fork}
            empty={inputs}
          />
        ) : (
          <aside aria-labelledby="detail-title" data-testid="step-detail" className={DETAIL_PANE}>
            {inputs}
          </aside>
        )}
      </div>
    </div>
  );
}

/** The row shown in the detail pane (`?task=` selects its task at first). */
function useSelection(initialTask: string | undefined) {
  const [selection, setSelection] = useState<Selection | null>(
    initialTask ? { type: "task", taskId: initialTask } : null,
  );
  const detailRef = useRef<HTMLDivElement>(null);
  const select = (s: Selection) => {
    setSelection(s);
    // Below the waterfall on narrow screens: bring the detail into view.
    if (!window.matchMedia("(min-width: 64rem)").matches)
      requestAnimationFrame(() =>
        detailRef.current?.scrollIntoView({ behavior: "smooth", block: "start" }),
      );
  };
  return { selection, select, clear: () => setSelection(null), detailRef };
}
