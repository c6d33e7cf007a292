"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { History } from "lucide-react";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { Checkbox } from "@/components/ui/input";
import { RelativeTime } from "@/components/ui/relative-time";
import { Skeleton } from "@/components/ui/skeleton";
import { toast } from "@/components/ui/toast";
import { ApiError, type Dataset, experimentsApi, runsApi } from "@/lib/api/client";
import { shortId } from "@/lib/format/id";
import { RowProblems } from "./dataset-dialog";
import { togglePicked } from "./experiment-form";

const inputsText = (inputs: Record<string, unknown>) =>
  Object.values(inputs)
    .map((v) => (typeof v === "string" ? v : JSON.stringify(v)))
    .join(" · ");

/**
 * "Add runs": pick finished runs of the crew; each becomes a row with its inputs, and with what
 * reviewers approved (their edits included) as the expected outputs.
 */
export function CollectDialog({ crew, dataset }: { crew: string; dataset: Dataset }) {
  const [open, setOpen] = useState(false);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [problems, setProblems] = useState<{ path: string; message: string }[]>([]);
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  const runs = useQuery({
    queryKey: ["runs", { crew, status: "completed", for: "collect" }],
    queryFn: () => runsApi.list({ crew, status: "completed", per_page: "50" }),
    enabled: open,
  });
  const toggle = (id: string) => setPicked((p) => togglePicked(p, id));

  async function add() {
    setBusy(true);
    setProblems([]);
    try {
      const r = await experimentsApi(crew).collect(dataset.id, [...picked]);
      toast.success(`${r.added} row${r.added === 1 ? "" : "s"} added to “${dataset.name}”.`);
      void queryClient.invalidateQueries({ queryKey: ["crews", crew, "datasets"] });
      setOpen(false);
      setPicked(new Set());
    } catch (err) {
      if (err instanceof ApiError && err.problem.errors?.length) setProblems(err.problem.errors);
      else toast.error(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button size="sm" variant="ghost" onClick={() => setOpen(true)}>
        <History aria-hidden />
        Add runs
      </Button>
      <DialogContent
        title={`Add runs to “${dataset.name}”`}
        description="Each run becomes a row: its inputs, and the outputs reviewers approved (as they edited them) as what is expected."
        className="sm:max-w-xl"
      >
        <div className="grid gap-4">
          {runs.error ? (
            <Alert tone="danger">{runs.error.message}</Alert>
          ) : !runs.data ? (
            <Skeleton className="h-32" aria-busy="true" />
          ) : runs.data.runs.length === 0 ? (
            <p className="m-0 text-muted-foreground text-sm">No finished runs of this crew yet.</p>
          ) : (
            <ul className="m-0 grid max-h-80 list-none divide-y overflow-y-auto rounded-md border p-0">
              {runs.data.runs.map((r) => (
                <RunChoice key={r.id} run={r} picked={picked.has(r.id)} onToggle={toggle} />
              ))}
            </ul>
          )}
          <RowProblems problems={problems} />
          <div className="flex items-center justify-end gap-3">
            <span className="text-muted-foreground text-sm">{picked.size} selected</span>
            <Button variant="primary" onClick={add} disabled={busy || picked.size === 0}>
              {busy ? "Adding…" : "Add to dataset"}
            </Button>
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}

type Run = Awaited<ReturnType<typeof runsApi.list>>["runs"][number];

/** A finished run to pick: its inputs in brief, its id, when it finished, whether reviewed. */
function RunChoice({
  run: r,
  picked,
  onToggle,
}: {
  run: Run;
  picked: boolean;
  onToggle: (id: string) => void;
}) {
  return (
    <li>
      <label
        htmlFor={`collect-${r.id}`}
        className="flex cursor-pointer items-start gap-3 px-3 py-2 text-sm hover:bg-muted/50"
      >
        <Checkbox
          id={`collect-${r.id}`}
          checked={picked}
          onChange={() => onToggle(r.id)}
          className="mt-0.5"
        />
        <span className="grid min-w-0 gap-0.5">
          <span className="truncate">{inputsText(r.inputs) || "(no inputs)"}</span>
          <span className="text-muted-foreground text-xs">
            <span className="font-mono">{shortId(r.id)}</span> · finished{" "}
            <RelativeTime iso={r.finished_at ?? r.created_at} />
            {r.review_wait_seconds > 0 ? " · reviewed" : ""}
          </span>
        </span>
      </label>
    </li>
  );
}
