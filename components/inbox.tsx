"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { runsApi } from "@/lib/api/client";
import { ReviewPanel } from "./review-panel";

/** Every run that awaits review, oldest request first; one opens at a time for review. */
export function Inbox({
  canReview,
  expected,
}: {
  canReview: boolean;
  expected: Record<string, Record<string, string>>;
}) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const { data, error, isPending } = useQuery({
    queryKey: ["runs", "inbox"],
    queryFn: () => runsApi.list({ status: "pending_human_input", per_page: "100" }),
    refetchInterval: 3_000,
  });
  if (error)
    return (
      <p role="alert" className="form-error">
        Could not load the inbox: {error.message}
      </p>
    );
  if (isPending)
    return (
      <p className="muted" aria-busy="true">
        Loading…
      </p>
    );
  const runs = [...data.runs].reverse();
  return (
    <>
      {notice && <p role="status">{notice}</p>}
      {runs.length === 0 && (
        <p className="muted">Nothing awaits review. New requests appear here on their own.</p>
      )}
      <ul className="inbox">
        {runs.map((r) => {
          const pending = r.pending_human_input;
          if (!pending) return null;
          return (
            <li key={r.id} className="card">
              <div className="run-header">
                <strong>{r.crew}</strong>
                <span className="muted">
                  {pending.task_id} · attempt {pending.attempt} · started{" "}
                  {new Date(r.created_at).toLocaleString()}
                  {r.started_by?.name && ` by ${r.started_by.name}`}
                </span>
                <a href={`/crews/${r.crew}/runs/${r.id}`}>Open run</a>
                {canReview && open !== r.id && (
                  <button type="button" onClick={() => setOpen(r.id)}>
                    Review
                  </button>
                )}
              </div>
              {canReview && open === r.id && (
                <ReviewPanel
                  key={`${r.id}-${pending.attempt}`}
                  crew={r.crew}
                  executionId={r.id}
                  pending={pending}
                  expectedOutput={expected[r.crew]?.[pending.task_id]}
                  onDone={(message) => {
                    setNotice(message);
                    setOpen(null);
                    queryClient.invalidateQueries({ queryKey: ["runs"] });
                  }}
                />
              )}
            </li>
          );
        })}
      </ul>
    </>
  );
}
