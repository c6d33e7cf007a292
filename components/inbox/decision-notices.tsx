"use client";

import { useQueries } from "@tanstack/react-query";
import { X } from "lucide-react";
import { useEffect } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { crewApi } from "@/lib/api/client";
import type { Decision } from "./types";

/**
 * What was just decided, kept only while it is still true: a "will run again" message goes once
 * the next attempt awaits review, or the run moves on to another task or finishes.
 */
export function DecisionNotices({
  decisions,
  onExpire,
}: {
  decisions: Decision[];
  onExpire: (runId: string) => void;
}) {
  const statuses = useQueries({
    queries: decisions.map((d) => ({
      queryKey: ["runs", "status", d.runId],
      queryFn: () => crewApi(d.crew).status(d.runId),
      refetchInterval: 2_000,
      enabled: !d.elsewhere,
    })),
  });
  const expired = decisions.filter((d, i) => {
    const s = statuses[i]?.data;
    if (!s || d.elsewhere) return false;
    if (s.status === "queued" || s.status === "running") return false;
    const p = s.pending_human_input;
    // Still the same request: the decision hasn't reached the run yet.
    if (s.status === "pending_human_input" && p?.task_id === d.taskId && p.attempt === d.attempt)
      return false;
    return true;
  });
  const expiredIds = expired.map((d) => d.runId).join(",");
  useEffect(() => {
    for (const id of expiredIds.split(",").filter(Boolean)) onExpire(id);
  }, [expiredIds, onExpire]);
  const live = decisions.filter((d) => !expired.includes(d));
  if (live.length === 0) return null;
  return (
    <div className="grid gap-2">
      {live.map((d) => (
        <Alert key={d.runId} tone={d.elsewhere ? "info" : "success"}>
          <div className="flex items-start gap-2">
            <span className="min-w-0 flex-1">{d.message}</span>
            <Button
              variant="ghost"
              size="icon-xs"
              aria-label="Dismiss"
              onClick={() => onExpire(d.runId)}
            >
              <X aria-hidden />
            </Button>
          </div>
        </Alert>
      ))}
    </div>
  );
}
