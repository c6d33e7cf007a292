"use client";

import Link from "next/link";
import { StatusPill } from "@/components/ui/status-pill";
import type { StatusResponse } from "@/lib/contract/status";
import type { FlowShapeMethod } from "./flow-layout";
import { LazyMarkdown } from "./lazy-markdown";

// A flow method's detail, below the graph: what it calls, how often it ran and with what
// outcome, the reviewer's feedback, its nested runs' traces, and its output.

export function MethodDetail({
  crew,
  method,
  status,
  notRun,
}: {
  crew: string;
  method: FlowShapeMethod;
  status?: StatusResponse;
  /** It did not run (the flow has ended without it). */
  notRun: boolean;
}) {
  const task = status?.tasks.find((t) => t.task_id === method.name);
  const runs = status?.flow?.path.filter((p) => p.method === method.name) ?? [];
  const nested = nestedRuns(method.name, status?.flow);
  return (
    <div className="mt-4 grid gap-3 border-t pt-4 text-sm" data-testid="flow-method-detail">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="m-0 font-mono font-semibold text-sm">{method.name}</h3>
        {task && <StatusPill status={task.status} />}
        {notRun && <span className="text-muted-foreground">did not run</span>}
      </div>
      <MethodFacts method={method} runs={runs} />
      {nested.length > 0 && (
        <ul className="m-0 flex list-none flex-wrap gap-2 p-0">
          {nested.map((id) => (
            <li key={id}>
              <Link
                href={`/crews/${crew}/runs/${id}`}
                className="text-link text-sm underline-offset-2 hover:underline"
              >
                Open its {method.call} run's trace
              </Link>
            </li>
          ))}
        </ul>
      )}
      {task?.output ? (
        <div className="min-w-0 break-words rounded-md border bg-background p-3 text-sm leading-6 [&_.markdown>:first-child]:mt-0 [&_.markdown>:last-child]:mb-0">
          <LazyMarkdown text={task.output} />
        </div>
      ) : (
        status && <p className="m-0 text-muted-foreground">No output yet.</p>
      )}
    </div>
  );
}

type Flow = NonNullable<StatusResponse["flow"]>;

/** The runs a method set off: those it finished, and the one it waits for now. */
export function nestedRuns(method: string, flow: Flow | null | undefined): string[] {
  const runs = flow?.path.filter((p) => p.method === method) ?? [];
  return [
    ...new Set([
      ...runs.flatMap((r) => r.nested_runs),
      ...(flow?.current?.method === method && flow.current.nested_run
        ? [flow.current.nested_run]
        : []),
    ]),
  ];
}

/** What the method calls, its outcomes, how often it ran (with which outcome), its feedback. */
function MethodFacts({ method, runs }: { method: FlowShapeMethod; runs: Flow["path"] }) {
  return (
    <dl className="m-0 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
      <dt className="text-muted-foreground">Calls</dt>
      <dd className="m-0">{method.call}</dd>
      {method.emit.length > 0 && (
        <>
          <dt className="text-muted-foreground">Outcomes</dt>
          <dd className="m-0">{method.emit.join(", ")}</dd>
        </>
      )}
      {runs.length > 0 && (
        <>
          <dt className="text-muted-foreground">Ran</dt>
          <dd className="m-0">
            {runs.length === 1 ? "once" : `${runs.length} times`}
            {runs.some((r) => r.outcome) &&
              ` · outcome ${runs
                .map((r) => r.outcome)
                .filter(Boolean)
                .join(", then ")}`}
          </dd>
        </>
      )}
      {runs.some((r) => r.feedback) && (
        <>
          <dt className="text-muted-foreground">Feedback</dt>
          <dd className="m-0 break-words">
            {runs
              .map((r) => r.feedback)
              .filter(Boolean)
              .join(" / ")}
          </dd>
        </>
      )}
    </dl>
  );
}
