"use client";

import { useState } from "react";
import { ErrorText } from "@/components/error-text";
import type { ExecutionEvent, StatusResponse } from "@/lib/api/schemas";
import { Markdown } from "./markdown";
import { ReviewPanel } from "./review-panel";
import { useLiveExecution } from "./use-live-execution";

type Props = {
  crew: string;
  id: string;
  canStop: boolean;
  canReview: boolean;
  expectedOutputs: Record<string, string>;
};

const FINISHED = new Set(["completed", "error", "cancelled"]);

export function RunView({ crew, id, canStop, canReview, expectedOutputs }: Props) {
  const { status, events, error, mode, refreshStatus, api } = useLiveExecution(crew, id);
  const [notice, setNotice] = useState<string | null>(null);
  const [stopping, setStopping] = useState(false);

  if (!status) {
    return error ? (
      <p role="alert" className="form-error">
        {error}
      </p>
    ) : (
      <p className="muted" aria-busy="true">
        Loading the run…
      </p>
    );
  }
  const inputs = (events.find((e) => e.type === "execution_queued")?.data.inputs ?? {}) as Record<
    string,
    unknown
  >;
  const pending = status.pending_human_input;
  // Events of no known task: a remote run's status changes, polled steps, unrecognised payloads.
  const taskIds = new Set(status.tasks.map((t) => t.task_id));
  const unplaced = events.filter(
    (e) =>
      (!e.task_id || !taskIds.has(e.task_id)) &&
      (STEP_TYPES.has(e.type) || e.type.startsWith("remote_")),
  );

  async function stop() {
    setStopping(true);
    try {
      await api.stop(id);
      setNotice("Stopped.");
    } catch (err) {
      setNotice(err instanceof Error ? err.message : String(err));
    } finally {
      setStopping(false);
      refreshStatus();
    }
  }

  return (
    <>
      <div className="run-header">
        <span className={`status status-${status.status}`} data-testid="run-status">
          {status.status.replaceAll("_", " ")}
        </span>
        <span className="muted">
          {status.progress.completed_tasks}/{status.progress.total_tasks} tasks
          {status.execution_time !== null && ` · ${status.execution_time.toFixed(1)} s`} ·{" "}
          {mode === "live" ? "live" : mode === "polling" ? "polling every 2 s" : mode}
        </span>
        {canStop && !FINISHED.has(status.status) && (
          <button type="button" onClick={stop} disabled={stopping}>
            {stopping ? "Stopping…" : "Stop"}
          </button>
        )}
      </div>
      {notice && <p role="status">{notice}</p>}
      <ErrorText>{error}</ErrorText>
      {Object.keys(inputs).length > 0 && (
        <dl className="inputs">
          {Object.entries(inputs).map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{String(v)}</dd>
            </div>
          ))}
        </dl>
      )}
      {pending && canReview && (
        <ReviewPanel
          key={`${pending.task_id}-${pending.attempt}`}
          crew={crew}
          executionId={id}
          pending={pending}
          expectedOutput={expectedOutputs[pending.task_id]}
          onDone={(message) => {
            setNotice(message);
            refreshStatus();
          }}
        />
      )}
      {pending && !canReview && (
        <p className="muted">Awaiting review of {pending.task_id} by a reviewer.</p>
      )}
      <h2>Timeline</h2>
      <ol className="timeline">
        {unplaced.length > 0 && (
          <li className="task">
            <div className="task-head">
              <strong>Run</strong>
            </div>
            <ul className="steps">
              {unplaced.map((e) => (
                <Step key={e.seq} event={e} />
              ))}
            </ul>
          </li>
        )}
        {status.tasks.map((task) => (
          <TaskBlock
            key={task.task_id}
            task={task}
            events={events.filter((e) => e.task_id === task.task_id)}
          />
        ))}
      </ol>
      <ErrorText>{status.error}</ErrorText>
      {status.result !== null && <Result status={status} />}
    </>
  );
}

function TaskBlock({
  task,
  events,
}: {
  task: StatusResponse["tasks"][number];
  events: ExecutionEvent[];
}) {
  const attempts = [...new Set(events.map((e) => e.attempt ?? 1))];
  return (
    <li className="task">
      <div className="task-head">
        <strong>{task.name}</strong>{" "}
        <span className={`status status-${task.status}`}>{task.status.replaceAll("_", " ")}</span>{" "}
        <span className="muted">
          {task.agent}
          {task.attempts > 1 && ` · attempt ${task.attempts}`}
          {task.execution_time !== null && ` · ${task.execution_time.toFixed(1)} s`}
        </span>
      </div>
      {attempts.map((attempt) => (
        <div key={attempt} className="attempt">
          {attempts.length > 1 && <div className="muted small">Attempt {attempt}</div>}
          <ul className="steps">
            {events
              .filter((e) => (e.attempt ?? 1) === attempt)
              .map((e) => (
                <Step key={e.seq} event={e} />
              ))}
          </ul>
        </div>
      ))}
    </li>
  );
}

const STEP_TYPES = new Set(["thought", "tool_call", "tool_result", "answer", "task_failed"]);

function Step({ event }: { event: ExecutionEvent }) {
  const d = event.data as Record<string, unknown>;
  switch (event.type) {
    case "thought":
      return (
        <li data-seq={event.seq} className="step thought">
          <span className="step-label">Thought</span> {String(d.text)}
        </li>
      );
    case "tool_call":
      return (
        <li data-seq={event.seq} className="step tool">
          <details>
            <summary>
              <span className="step-label">Tool call</span> {String(d.tool)}
            </summary>
            <pre>{JSON.stringify(d.tool_input, null, 2)}</pre>
          </details>
        </li>
      );
    case "tool_result":
      return (
        <li data-seq={event.seq} className="step tool">
          <details>
            <summary>
              <span className="step-label">Tool result</span> {String(d.tool)}
            </summary>
            <pre>{typeof d.result === "string" ? d.result : JSON.stringify(d.result, null, 2)}</pre>
          </details>
        </li>
      );
    case "answer":
      return (
        <li data-seq={event.seq} className="step answer">
          <span className="step-label">Answer</span>
          <Markdown text={String(d.text)} />
        </li>
      );
    case "review_requested":
      return (
        <li data-seq={event.seq} className="step review">
          <span className="step-label">Review</span> waiting for a reviewer
        </li>
      );
    case "review_submitted":
      return (
        <li data-seq={event.seq} className="step review">
          <span className="step-label">Review</span>{" "}
          {d.decision === "approve" ? "Approved" : "Changes requested"} by {String(d.reviewer)}
          {d.feedback ? `: “${String(d.feedback)}”` : ""}
        </li>
      );
    case "remote_status":
      return (
        <li data-seq={event.seq} className="step">
          <span className="step-label">Status</span> {String(d.to).replaceAll("_", " ")}
          {d.raw_state ? (
            <span className="muted"> (the deployment says {String(d.raw_state)})</span>
          ) : null}
        </li>
      );
    case "remote_error":
      return (
        <li data-seq={event.seq} className="step error">
          <span className="step-label">Deployment</span> {String(d.error)}
        </li>
      );
    case "remote_step":
    case "remote_task":
    case "remote_crew":
    case "remote_unrecognized":
      // What a deployment sent in a shape we do not know: shown as it came, not hidden.
      return (
        <li data-seq={event.seq} className="step tool">
          <details>
            <summary>
              <span className="step-label">{event.type.replace("remote_", "")}</span> from the
              deployment
            </summary>
            <pre>{JSON.stringify(d.payload ?? d.raw, null, 2)}</pre>
          </details>
        </li>
      );
    case "task_failed":
      return (
        <li data-seq={event.seq} className="step error">
          <span className="step-label">Failed</span> {String(d.error)}
        </li>
      );
    default:
      return null;
  }
}

function Result({ status }: { status: StatusResponse }) {
  const result = status.result ?? "";
  const download = (name: string, type: string, body: string) => {
    const url = URL.createObjectURL(new Blob([body], { type }));
    const a = Object.assign(document.createElement("a"), { href: url, download: name });
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <section className="card">
      <h2 style={{ marginTop: 0 }}>Result</h2>
      <div className="actions">
        <button type="button" onClick={() => navigator.clipboard.writeText(result)}>
          Copy
        </button>
        <button
          type="button"
          onClick={() => download(`${status.kickoff_id}.md`, "text/markdown", result)}
        >
          Download Markdown
        </button>
        <button
          type="button"
          onClick={() =>
            download(
              `${status.kickoff_id}.json`,
              "application/json",
              JSON.stringify(status, null, 2),
            )
          }
        >
          Download JSON
        </button>
      </div>
      <Markdown text={result} />
    </section>
  );
}
