"use client";

import { Download, RotateCcw } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";
import { crewApi } from "@/lib/api/client";
import type { ExecutionEvent } from "@/lib/contract/status";
import { isActive } from "@/lib/run-model/states";
import { RerunDialog } from "./rerun-dialog";
import type { RunStatus } from "./run-types";
import { StopButton } from "./stop-button";

/** Starts a run again (same inputs, linked to it as its re-run) and opens the new run. */
export function useRerun(crew: string) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const start = async (originId: string) => {
    setBusy(true);
    try {
      const { kickoff_id: id } = await crewApi(crew).rerun(originId, {});
      // The new run's page, opening now, is the confirmation.
      router.push(`/crews/${encodeURIComponent(crew)}/runs/${id}`);
    } catch (err) {
      toast.error(err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  };
  return { busy, start };
}

function download(name: string, body: unknown) {
  const url = URL.createObjectURL(
    new Blob([JSON.stringify(body, null, 2)], { type: "application/json" }),
  );
  const a = Object.assign(document.createElement("a"), { href: url, download: name });
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Stop (asks first), Re-run with the same inputs, Download the run as JSON, Copy its id. */
export function RunActions({
  crew,
  status,
  events,
  canStop,
  canStart,
  onChanged,
}: {
  crew: string;
  status: RunStatus;
  events: ExecutionEvent[];
  canStop: boolean;
  canStart: boolean;
  onChanged: () => void;
}) {
  const inputs = status.inputs;
  const again = useRerun(crew);
  const active = isActive(status.status);
  return (
    <>
      {canStop && active && (
        <StopButton
          onConfirm={async () => {
            try {
              // The page says it was stopped, by whom: no toast beside it.
              await crewApi(crew).stop(status.kickoff_id);
            } catch (err) {
              toast.error(err instanceof Error ? err.message : String(err));
            } finally {
              onChanged();
            }
          }}
        />
      )}
      {canStart && inputs && (
        <Button size="sm" disabled={again.busy} onClick={() => again.start(status.kickoff_id)}>
          <RotateCcw aria-hidden />
          {again.busy ? "Starting…" : "Re-run"}
        </Button>
      )}
      {canStart && inputs && <RerunDialog crew={crew} status={status} />}
      <Button
        size="sm"
        onClick={() => download(`run-${status.kickoff_id}.json`, { status, events })}
      >
        <Download aria-hidden />
        <span className="max-sm:sr-only">Download</span>
      </Button>
    </>
  );
}
