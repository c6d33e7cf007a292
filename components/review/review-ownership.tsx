"use client";

import { Hand, Lock, LockOpen, Timer, UserRoundPen, Users } from "lucide-react";
import { useId, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "@/components/ui/dialog";
import { RelativeTime } from "@/components/ui/relative-time";
import { toast } from "@/components/ui/toast";
import { crewApi } from "@/lib/api/client";
import { ROLES } from "@/lib/auth/roles";
import type { OpenReviewView, ReviewAction } from "@/lib/contract/reviews";
import { errorMessage } from "@/lib/errors";
import { AssigneePicker } from "./assignee-picker";

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
  const [busy, setBusy] = useState(false);
  const mine = review.claimed_by !== null && review.claimed_by === me;
  // A quorum voter has done their part: nothing to claim.
  const voted = me !== null && review.approvals.some((a) => a.reviewer === me);
  // The review itself shows what changed (who holds it, who it is for): no toast beside it. A
  // failure is said once: on the reassign field, or as a toast for a claim or release.
  const act = async (body: ReviewAction): Promise<string | null> => {
    setBusy(true);
    try {
      await crewApi(crew).review(executionId, review.task_id, body);
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

  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border bg-muted/40 px-3 py-2 text-sm">
      <span className="flex min-w-0 items-center gap-1.5">
        <Users aria-hidden className="size-4 shrink-0 text-muted-foreground" />
        <span className="sr-only">Assigned to</span>
        {review.assignees.length ? (
          <span className="flex flex-wrap gap-1">
            {review.assignees.map((a) => (
              <Badge key={a} tone={a === me ? "info" : "neutral"}>
                {a.includes("@")
                  ? a
                  : `${a} (${(ROLES as readonly string[]).includes(a) ? "role" : "team"})`}
              </Badge>
            ))}
          </span>
        ) : (
          <span className="text-muted-foreground">Anyone who may review</span>
        )}
      </span>
      {review.required_approvals > 1 && (
        <span
          className="tabular-nums"
          title={review.approvals.map((a) => a.reviewer).join(", ") || "No approvals yet"}
        >
          <span className="font-medium">
            {review.approvals.length} of {review.required_approvals}
          </span>{" "}
          approvals
          {review.approvals.length > 0 && (
            <span className="text-muted-foreground">
              {" "}
              · {review.approvals.map((a) => a.reviewer).join(", ")}
            </span>
          )}
        </span>
      )}
      {review.deadline_at && (
        <span className="flex items-center gap-1.5">
          <Timer aria-hidden className="size-4 text-muted-foreground" />
          <span>
            Due <RelativeTime iso={review.deadline_at} />
            {review.on_timeout && (
              <span className="text-muted-foreground">, {AFTER_DEADLINE[review.on_timeout]}</span>
            )}
          </span>
        </span>
      )}
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

function ReassignDialog({
  current,
  disabled,
  onSubmit,
}: {
  current: string[];
  disabled: boolean;
  /** Null when it went through, else why not (said on the field). */
  onSubmit: (assignees: string[]) => Promise<string | null>;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState(current);
  const [error, setError] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  const help = "Whoever you choose may decide; the claim, if any, ends.";
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) {
          setValue(current);
          setError(undefined);
        }
      }}
    >
      <Button size="sm" variant="ghost" disabled={disabled} onClick={() => setOpen(true)}>
        <UserRoundPen aria-hidden />
        Reassign
      </Button>
      <DialogContent title="Reassign this review" description={help}>
        <form
          className="grid gap-4"
          onSubmit={async (e) => {
            e.preventDefault();
            if (!value.length) {
              setError("Choose at least one person, role or team.");
              return;
            }
            setSending(true);
            const failed = await onSubmit(value);
            setSending(false);
            if (failed) setError(failed);
            else setOpen(false);
          }}
        >
          <div className="grid gap-1.5">
            <span id={`${id}-label`} className="font-medium text-sm">
              Assign to
            </span>
            <AssigneePicker
              value={value}
              onChange={(v) => {
                setValue(v);
                setError(undefined);
              }}
              labelledBy={`${id}-label`}
              describedBy={error ? `${id}-error` : undefined}
              invalid={!!error}
            />
            {error && (
              <p
                id={`${id}-error`}
                role="alert"
                className="m-0 text-sm text-tone-danger-foreground"
              >
                {error}
              </p>
            )}
          </div>
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="ghost">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" variant="primary" disabled={sending}>
              {sending ? "Reassigning…" : "Reassign"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
