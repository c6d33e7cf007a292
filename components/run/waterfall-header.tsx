import { ChevronsDownUp, ChevronsUpDown } from "lucide-react";
import { useMemo } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { formatCount } from "@/lib/format/numbers";
import { STEP_STYLE } from "./step-style";
import type { Trace } from "./trace-types";
import { legendFor, stepCount } from "./waterfall-model";

/** The waterfall's title with its counts, the legend, and "Expand all" / "Collapse all". */
export function WaterfallHeader({
  trace,
  allOpen,
  onSetAll,
}: {
  trace: Trace;
  allOpen: boolean;
  onSetAll: (open: boolean) => void;
}) {
  const steps = useMemo(() => stepCount(trace), [trace]);
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 px-4 pt-3 pb-2">
      <div className="flex min-w-0 flex-wrap items-baseline gap-x-3 gap-y-1">
        <h2 id="trace-title" className="m-0 font-semibold text-base">
          Trace
        </h2>
        <p className="text-muted-foreground text-xs">
          {trace.tasks.length} {trace.tasks.length === 1 ? "task" : "tasks"} · {formatCount(steps)}{" "}
          {steps === 1 ? "step" : "steps"}
        </p>
      </div>
      <div className="flex items-center gap-3">
        <ul className="hidden items-center gap-3 whitespace-nowrap text-muted-foreground text-xs md:flex">
          {legendFor(trace).map((k) => (
            <li key={k} className="flex items-center gap-1.5">
              <span aria-hidden className={cn("size-2.5 rounded-sm", STEP_STYLE[k].bar)} />
              {STEP_STYLE[k].name}
            </li>
          ))}
        </ul>
        {trace.tasks.length > 0 && (
          <Button size="sm" variant="ghost" onClick={() => onSetAll(!allOpen)}>
            {allOpen ? <ChevronsDownUp aria-hidden /> : <ChevronsUpDown aria-hidden />}
            {allOpen ? "Collapse all" : "Expand all"}
          </Button>
        )}
      </div>
    </div>
  );
}
