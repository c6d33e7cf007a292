"use client";

import { useQueryClient } from "@tanstack/react-query";
import { RotateCcw } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

export type DecisionProblem = { text: string; conflict: boolean };

/**
 * Why a decision was not sent. A conflict (someone else decided first, the run moved on) offers
 * a refresh to show where things stand.
 */
export function DecisionError({
  error,
  onDismiss,
}: {
  error: DecisionProblem;
  onDismiss: () => void;
}) {
  const queryClient = useQueryClient();
  return (
    <Alert tone="danger" title={error.conflict ? "Already decided" : "Not sent"}>
      <div className="grid gap-2">
        <span>{error.text}</span>
        {error.conflict && (
          <Button
            size="sm"
            className="justify-self-start"
            onClick={() => {
              onDismiss();
              void queryClient.invalidateQueries();
            }}
          >
            <RotateCcw aria-hidden />
            Refresh
          </Button>
        )}
      </div>
    </Alert>
  );
}
