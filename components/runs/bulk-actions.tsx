"use client";

import { useQueryClient } from "@tanstack/react-query";
import { RotateCcw, Square, X } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { useCrewName } from "@/components/crew-names";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { toast } from "@/components/ui/toast";
import { shortId } from "@/lib/format/id";
import { isActive } from "@/lib/run-model/states";
import { rerun, settleAll, stopRun } from "./actions";
import type { RunRow } from "./model";
import { RerunOnModel } from "./rerun-on-model";

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

const SHOWN = 5;

/** Links to the runs just started (the first few), so the toast leads to them. */
type Started = { crew: string; name: string; id: string };

function startedLinks(started: Started[]) {
  if (!started.length) return undefined;
  return (
    <span className="grid gap-0.5">
      {started.slice(0, SHOWN).map((r) => (
        <Link
          key={r.id}
          href={`/crews/${encodeURIComponent(r.crew)}/runs/${r.id}`}
          className="text-link hover:underline"
        >
          {r.name} · <span className="font-mono">{shortId(r.id)}</span>
        </Link>
      ))}
      {started.length > SHOWN && <span>and {started.length - SHOWN} more in the list</span>}
    </span>
  );
}

function report(
  verb: string,
  ok: number,
  failed: { item: RunRow; error: string }[],
  started: Started[] = [],
) {
  const links = startedLinks(started);
  if (!failed.length)
    return toast.success(`${verb} ${plural(ok, "run")}`, {
      description: links,
      duration: links ? 10_000 : undefined,
    });
  const first = failed[0];
  toast.error(`${verb} ${ok} of ${ok + failed.length} runs`, {
    description: (
      <span className="grid gap-1">
        {first &&
          `${shortId(first.item.id)} (${first.item.crew}): ${first.error}${failed.length > 1 ? ` — and ${failed.length - 1} more` : ""}`}
        {links}
      </span>
    ),
  });
}

/** What can be done to the selected runs at once: stop the active ones, start them all again. */
export function BulkActions({ runs, clear }: { runs: RunRow[]; clear: () => void }) {
  const crewName = useCrewName();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const active = runs.filter((r) => isActive(r.status));
  const refresh = () => client.invalidateQueries({ queryKey: ["runs"] });

  /** Starts every selected run again (on `model` when given); null, or why none started. */
  const doRerun = async (model?: string): Promise<string | null> => {
    setBusy(true);
    try {
      const { ok, done, failed } = await settleAll(runs, (r) => rerun(r, model));
      // Refused for all alike (a model that cannot be used): said where the model was typed.
      if (model && !ok && failed[0]) return failed[0].error;
      const started = done.map((d) => ({
        crew: d.item.crew,
        name: crewName(d.item.crew),
        id: d.value,
      }));
      report("Started", ok, failed, started);
      if (ok) clear();
      await refresh();
      return null;
    } finally {
      setBusy(false);
    }
  };
  const doStop = async () => {
    const { ok, failed } = await settleAll(active, stopRun);
    report("Stopped", ok, failed);
    clear();
    await refresh();
  };

  return (
    <div
      role="toolbar"
      aria-label="Selected runs"
      className="flex flex-wrap items-center gap-2 rounded-lg border bg-accent px-3 py-2 text-accent-foreground"
    >
      <span className="mr-auto font-medium text-sm">{plural(runs.length, "run")} selected</span>
      <ConfirmDialog
        trigger={
          <Button size="sm" disabled={!active.length || busy}>
            <Square aria-hidden />
            Stop{active.length ? ` ${active.length}` : ""}
          </Button>
        }
        title={`Stop ${plural(active.length, "run")}?`}
        description={
          active.length < runs.length
            ? `Only active runs can be stopped; ${plural(runs.length - active.length, "finished run")} will be left as they are. Stopped runs cannot be resumed.`
            : "Stopped runs cannot be resumed."
        }
        confirmLabel={`Stop ${plural(active.length, "run")}`}
        onConfirm={doStop}
      />
      <Button size="sm" onClick={() => doRerun()} disabled={busy}>
        <RotateCcw aria-hidden />
        Re-run {runs.length}
      </Button>
      <RerunOnModel count={runs.length} disabled={busy} onRun={doRerun} />
      <Button size="sm" variant="ghost" onClick={clear}>
        <X aria-hidden />
        Clear selection
      </Button>
    </div>
  );
}
