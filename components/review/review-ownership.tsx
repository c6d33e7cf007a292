"use client";

import { Hand, Lock, LockOpen, Timer, Users } from "lucide-react";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { RelativeTime } from "@/components/ui/relative-time";
import { toast } from "@/components/ui/toast";
import { crewApi } from "@/lib/api/client";
import type { OpenReviewView, ReviewAction } from "@/lib/contract/reviews";
import { errorMessage } from "@/lib/errors";
import { assigneeLabel } from "./assignee-label";
import { ReassignDialog } from "./reassign-dialog";

const AFTER_DEADLINE: Record<string, string> = {
  approve: "then it is approved automatically",
  send_back: "then it is sent back",
  stop: "then the run stops",
  escalate: "then it goes to the escalation",
};

/**
 * Who a review is for and where it stands: assignees, approvals toward its quorum, its deadline,
 * who holds it — with claim, release and reassign.
 */
export function ReviewOwnership({
  crew,
  executionId,
  review,
  me,
  canAct,
  onChanged,
}: {
  crew: string;
  executionId: string;
  review: OpenReviewView;
  /** The signed-in person's e-mail. */
  me: string | null;
  /** Claims and reassignment are for people who may review (remote runs: decided only). */
  canAct: boolean;
  onChanged: () => void;
}) {
  const { busy, act } = useReviewAction(crew, executionId, review.task_id, onChanged);
  const mine = review.claimed_by !== null && review.claimed_by === me;
  // A quorum voter has done their part: nothing to claim.
  const voted = me !== null && review.approvals.some((a) => a.reviewer === me);
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border bg-muted/40 px-3 py-2 text-sm">
      <Assignees assignees={review.assignees} me={me} />
      {review.required_approvals > 1 && <Approvals review={review} />}
      {review.deadline_at && <Deadline at={review.deadline_at} onTimeout={review.on_timeout} />}
      <span className="ml-auto flex flex-wrap items-center gap-2">
        {review.claimed_by && (
          <span className="flex items-center gap-1.5" data-testid="claim">
            <Lock aria-hidden className="size-4 text-muted-foreground" />
            {mine ? "You are reviewing this" : `${review.claimed_by} is reviewing this`}
            {review.claimed_until && (
              <span className="text-muted-foreground">
                · ends <RelativeTime iso={review.claimed_until} />
              </span>
            )}
          </span>
        )}
        {canAct && !review.claimed_by && !voted && (
          <Button size="sm" disabled={busy} onClick={() => act({ action: "claim" })}>
            <Hand aria-hidden />
            Claim
          </Button>
        )}
        {canAct && mine && (
          <Button size="sm" disabled={busy} onClick={() => act({ action: "release" })}>
            <LockOpen aria-hidden />
            Release
          </Button>
        )}
        {canAct && (
          <ReassignDialog
            current={review.assignees}
            disabled={busy}
            onSubmit={(assignees) => act({ action: "reassign", assignees })}
          />
        )}
      </span>
    </div>
  );
}

/**
 * Claim, release or reassign. The review itself shows what changed (who holds it, who it is for):
 * no toast beside it. A failure is said once: on the reassign field, or as a toast for a claim or
 * release.
 */
function useReviewAction(crew: string, executionId: string, taskId: string, onChanged: () => void) {
  const [busy, setBusy] = useState(false);
  const act = async (body: ReviewAction): Promise<string | null> => {
    setBusy(true);
    try {
      await crewApi(crew).review(executionId, taskId, body);
      onChanged();
      return null;
    } catch (err) {
      const message = errorMessage(err);
      if (body.action !== "reassign") toast.error(message);
      return message;
    } finally {
      setBusy(false);
    }
  };
  return { busy, act };
}

function Assignees({ assignees, me }: { assignees: string[]; me: string | null }) {
  return (
    <span className="flex min-w-0 items-center gap-1.5">
      <Users aria-hidden className="size-4 shrink-0 text-muted-foreground" />
      <span className="sr-only">Assigned to</span>
      {assignees.length ? (
        <span className="flex flex-wrap gap-1">
          {assignees.map((a) => (
            <Badge key={a} tone={a === me ? "info" : "neutral"}>
              {assigneeLabel(a)}
            </Badge>
          ))}
        </span>
      ) : (
        <span className="text-muted-foreground">Anyone who may review</span>
      )}
    </span>
  );
}

function Approvals({ review }: { review: OpenReviewView }) {
  const voters = review.approvals.map((a) => a.reviewer).join(", ");
  return (
    <span className="tabular-nums" title={voters || "No approvals yet"}>
      <span className="font-medium">
        {review.approvals.length} of {review.required_approvals}
      </span>{" "}
      approvals
      {review.approvals.length > 0 && <span className="text-muted-foreground"> · {voters}</span>}
    </span>
  );
}

function Deadline({ at, onTimeout }: { at: string; onTimeout: OpenReviewView["on_timeout"] }) {
  return (
    <span className="flex items-center gap-1.5">
      <Timer aria-hidden className="size-4 text-muted-foreground" />
      <span>
        Due <RelativeTime iso={at} />
        {onTimeout && <span className="text-muted-foreground">, {AFTER_DEADLINE[onTimeout]}</span>}
      </span>
    </span>
  );
}
