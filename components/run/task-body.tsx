import type { ReactNode } from "react";
import { StatusPill } from "@/components/ui/status-pill";
import { formatDuration } from "@/lib/format/duration";
import { formatCount } from "@/lib/format/numbers";
import { ForkDialog } from "./fork-dialog";
import { OutputView } from "./output-view";
import type { TaskWithUsage } from "./run-types";
import type { TraceAttempt, TraceTask } from "./trace-types";

// What the detail pane says of a task and of one attempt of it, and the facts list it uses.

type Usage = { input_tokens?: number; output_tokens?: number };

export function Facts({ items }: { items: [string, ReactNode][] }) {
  const shown = items.filter(([, v]) => v !== null && v !== undefined && v !== "");
  if (!shown.length) return null;
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm">
      {shown.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-muted-foreground">{k}</dt>
          <dd className="min-w-0 break-words tabular-nums">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

export const usageText = (u: Usage | undefined) =>
  u && typeof u.input_tokens === "number"
    ? `${formatCount(u.input_tokens)} in · ${formatCount(u.output_tokens ?? 0)} out`
    : null;

export function AttemptBody({ attempt }: { attempt: TraceAttempt }) {
  return (
    <>
      {attempt.edit && (
        <p className="text-sm">
          Edited by {attempt.edit.reviewer} before {attempt.edit.when ?? "approving"}: later tasks
          got the edit. The agent's own output is below.
        </p>
      )}
      {attempt.review && (
        <p className="text-sm">
          {attempt.review.decision === "approve" ? "Approved" : "Sent back"} by{" "}
          {attempt.review.reviewer}
          {attempt.review.feedback && (
            <span className="mt-1 block rounded-md bg-muted p-2 italic">
              “{attempt.review.feedback}”
            </span>
          )}
        </p>
      )}
      {attempt.output ? (
        <OutputView text={attempt.output} format={attempt.format} />
      ) : (
        <p className="text-muted-foreground text-sm">No output yet.</p>
      )}
    </>
  );
}

export function TaskBody({
  task,
  status,
  tasks,
  fork,
  now,
}: {
  task: TraceTask;
  status?: TaskWithUsage;
  tasks: TaskWithUsage[];
  fork?: { crew: string; runId: string; path?: string[] };
  now: number;
}) {
  const last = task.attempts.at(-1);
  // A later task of a local crew can be forked from once every task before it completed; a
  // flow's method, once it is on the run's path after the first (the methods before it inherited).
  const path = fork?.path;
  const onPath = path ? path.indexOf(task.taskId) : -1;
  const index = tasks.findIndex((t) => t.task_id === task.taskId);
  const before = path
    ? [...new Set(path.slice(0, Math.max(0, onPath)))].flatMap(
        (m) => tasks.find((t) => t.task_id === m) ?? [],
      )
    : index > 0
      ? tasks.slice(0, index)
      : [];
  const forkable =
    fork && before.length > 0 && before.every((t) => t.status === "completed" && t.output !== null);
  return (
    <>
      <Facts
        items={[
          ["Status", <StatusPill key="s" status={task.status} />],
          ["Agent", task.agent],
          ["Attempts", String(Math.max(task.attempts.length, status?.attempts ?? 0))],
          [
            "Took",
            task.start !== null ? formatDuration(((task.end ?? now) - task.start) / 1000) : null,
          ],
          ["Tokens", usageText(status?.token_usage)],
          [
            "Output",
            last?.edit
              ? `Edited by ${last.edit.reviewer} before ${last.edit.when ?? "approving"}`
              : null,
          ],
        ]}
      />
      {forkable && (
        <ForkDialog
          crew={fork.crew}
          runId={fork.runId}
          task={{ task_id: task.taskId, name: task.name }}
          inherited={before.map((t) => ({
            task_id: t.task_id,
            name: t.name,
            output: t.output ?? "",
          }))}
        />
      )}
      {(status?.output ?? last?.output) ? (
        <OutputView text={status?.output ?? last?.output ?? ""} format={last?.format ?? "text"} />
      ) : null}
    </>
  );
}
