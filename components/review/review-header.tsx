"use client";

import { useQueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import type { ReviewPanelProps } from "./decision";
import { ReviewOwnership } from "./review-ownership";

/**
 * The top of a review panel: what is reviewed and which attempt, who it is for and who holds it
 * (claim, release, reassign), and a word when someone else holds it.
 */
export function ReviewHeader({
  heading,
  crew,
  executionId,
  pending,
  me,
  claimable = true,
  onChanged,
}: Pick<ReviewPanelProps, "crew" | "executionId" | "pending" | "me" | "claimable" | "onChanged"> & {
  heading: ReactNode;
}) {
  const queryClient = useQueryClient();
  return (
    <>
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="m-0 font-semibold text-base">{heading}</h2>
        <Badge tone={pending.attempt > 1 ? "warning" : "neutral"}>Attempt {pending.attempt}</Badge>
      </div>
      <ReviewOwnership
        crew={crew}
        executionId={executionId}
        review={pending}
        me={me}
        canAct={claimable}
        onChanged={() => {
          onChanged?.();
          void queryClient.invalidateQueries();
        }}
      />
      {heldByOther(pending, me) && (
        <Alert tone="info" title={`${pending.claimed_by} is reviewing this`}>
          You can read it; deciding waits until they release it or their claim runs out.
        </Alert>
      )}
    </>
  );
}

/** Someone else has claimed the review: it can be read, not decided. */
export const heldByOther = (pending: ReviewPanelProps["pending"], me: string | null) =>
  pending.claimed_by !== null && pending.claimed_by !== me;
