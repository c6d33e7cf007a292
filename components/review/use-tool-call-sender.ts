"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "@/components/ui/toast";
import { useMounted } from "@/components/ui/use-mounted";
import { crewApi } from "@/lib/api/client";
import type { ToolCall } from "./call-card";
import { type Decided, decisionFailure, type ReviewPanelProps } from "./decision";
import type { DecisionProblem } from "./decision-error";

const more = (rest: number) => `${rest} more call${rest === 1 ? "" : "s"} to decide`;

/**
 * What a reviewer is told after deciding one call: `rest` calls still wait; `status` is the run's
 * once the last is decided. A vote with calls left is recorded, not the review's end.
 */
export function toolCallDone(
  tool: string,
  approve: boolean,
  edited: boolean,
  rest: number,
  status: string,
): { message: string; decided: Decided } {
  const message = approve
    ? `Approved ${tool}${edited ? " with your edits" : ""}: ${rest ? `${more(rest)}.` : status === "waiting" ? "the run still waits for its other reviews." : "it runs and the agent goes on."}`
    : `Refused ${tool}: the agent goes on without it${rest ? ` (${more(rest)})` : ""}.`;
  return { message, decided: rest ? "recorded" : approve ? "approved" : "sent_back" };
}

/** The reason being written and the sending of one call's decision. */
export function useToolCallSender(props: ReviewPanelProps, waiting: number) {
  const { crew, executionId, pending, onDone } = props;
  const queryClient = useQueryClient();
  const [reason, setReason] = useState("");
  const [error, setError] = useState<DecisionProblem | null>(null);
  const mounted = useMounted();

  async function send(
    call: ToolCall,
    approve: boolean,
    text: string,
    edited?: Record<string, unknown>,
  ) {
    setError(null);
    try {
      const answer = await crewApi(crew).resume({
        execution_id: executionId,
        task_id: pending.task_id,
        call_id: call.call_id,
        human_feedback: text,
        is_approve: approve,
        ...(edited !== undefined ? { edited_arguments: edited } : {}),
      });
      setReason("");
      const done = toolCallDone(
        call.tool,
        approve,
        edited !== undefined,
        waiting - 1,
        answer.status,
      );
      onDone(done.message, done.decided);
      void queryClient.invalidateQueries();
    } catch (err) {
      const problem = decisionFailure(err, "this call");
      // Said once: here, or where it is still seen when this panel is gone (the reviewer moved on).
      if (mounted.current) setError(problem);
      else toast.error(problem.text);
    }
  }

  return { reason, setReason, error, setError, send };
}
