"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ChevronDown } from "lucide-react";
import { useState } from "react";
import { DeleteButton } from "@/components/automation/row-actions";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { type Dataset, experimentsApi } from "@/lib/api/client";
import { CollectDialog } from "./collect-dialog";
import { DatasetDialog } from "./dataset-dialog";

const preview = (v: unknown) => {
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 59)}…` : s;
};

/** One dataset: its size, its rows on demand, and the ways to add to it. */
export function DatasetRow({
  crew,
  dataset: d,
  canEdit,
}: {
  crew: string;
  dataset: Dataset;
  canEdit: boolean;
}) {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const api = experimentsApi(crew);
  const rows = useQuery({
    queryKey: ["crews", crew, "datasets", d.id],
    queryFn: () => api.dataset(d.id),
    enabled: open,
  });
  return (
    <li className="grid gap-2 px-3 py-3 text-sm">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <Button
          size="sm"
          variant="ghost"
          aria-expanded={open}
          className="-ml-2 font-medium"
          onClick={() => setOpen(!open)}
        >
          <ChevronDown aria-hidden className={open ? "rotate-180 transition" : "transition"} />
          {d.name}
        </Button>
        <span className="text-muted-foreground text-xs">
          {d.row_count} row{d.row_count === 1 ? "" : "s"}
        </span>
      </div>
      {canEdit && (
        <div className="flex flex-wrap gap-1">
          <DatasetDialog crew={crew} dataset={d} />
          <CollectDialog crew={crew} dataset={d} />
          <DeleteButton
            what="dataset"
            name={d.name}
            description="Its rows go with it. Experiments that ran it keep their copy of each row."
            remove={() => api.deleteDataset(d.id)}
            refresh={() => queryClient.invalidateQueries({ queryKey: ["crews", crew, "datasets"] })}
          />
        </div>
      )}
      {open &&
        (rows.data ? (
          rows.data.rows.length ? (
            <DatasetRows rows={rows.data.rows} />
          ) : (
            <p className="m-0 text-muted-foreground text-xs">No rows yet.</p>
          )
        ) : (
          <Skeleton className="h-10" aria-busy="true" />
        ))}
    </li>
  );
}

type Row = {
  position: number;
  inputs: Record<string, unknown>;
  expected: Record<string, unknown>;
  source_execution_id: string | null;
};

/** The first 50 rows: their inputs in brief and which outputs they expect. */
function DatasetRows({ rows }: { rows: Row[] }) {
  return (
    <ol className="m-0 grid list-none gap-1 p-0 text-xs">
      {rows.slice(0, 50).map((r) => (
        <li key={r.position} className="grid gap-0.5 rounded-md bg-muted/50 px-2 py-1.5">
          <span className="break-words">
            <span className="text-muted-foreground">{r.position}.</span>{" "}
            {Object.entries(r.inputs)
              .map(([k, v]) => `${k}: ${preview(v)}`)
              .join(" · ")}
          </span>
          {Object.keys(r.expected).length > 0 && (
            <span className="text-muted-foreground">
              expected: {Object.keys(r.expected).join(", ")}
              {r.source_execution_id ? " (approved by a reviewer)" : ""}
            </span>
          )}
        </li>
      ))}
      {rows.length > 50 && (
        <li className="px-2 text-muted-foreground">
          and {rows.length - 50} more rows (the API lists them all)
        </li>
      )}
    </ol>
  );
}
