"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "@/components/ui/table";
import { type Experiment, type ExperimentCell, experimentsApi } from "@/lib/api/client";
import { formatValue } from "./matrix-table";
import { RowDetail } from "./row-detail";
import { cellsOf, inputsPreview, leadMetric, meanScore, rowNumbers } from "./rows-model";

/** Each row of the dataset: its inputs and each variant's score, then two outputs side by side. */
export function RowsDrilldown({
  crew,
  experiment: x,
  baseline,
}: {
  crew: string;
  experiment: Experiment;
  baseline: string;
}) {
  const cells = useQuery({
    // Keyed by progress: each cell scored (or skipped) is read once, the last ones too.
    queryKey: ["crews", crew, "experiments", x.id, "cells", x.progress.scored, x.progress.skipped],
    queryFn: () => experimentsApi(crew).cells(x.id),
    placeholderData: (previous) => previous,
  });
  const [open, setOpen] = useState<number | null>(null);
  const names = x.variants.map((v) => v.name);
  const metrics = x.matrix.metrics;
  return (
    <section aria-labelledby="rows" className="grid gap-3">
      <h2 id="rows" className="m-0 font-semibold text-base">
        Rows
      </h2>
      {cells.error ? (
        <Alert tone="danger">{cells.error.message}</Alert>
      ) : !cells.data ? (
        <Skeleton className="h-24" aria-busy="true" />
      ) : (
        <>
          {cells.data.cells.length >= 2000 && (
            <Alert tone="info">
              The first 2,000 runs are shown here, by row; the matrix above counts them all.
            </Alert>
          )}
          <RowsTable
            cells={cells.data.cells}
            names={names}
            lead={leadMetric(metrics)}
            open={open}
            onOpen={setOpen}
          />
          {open !== null && (
            <RowDetail
              crew={crew}
              cells={cells.data.cells.filter((c) => c.row === open)}
              names={names}
              baseline={baseline}
              metrics={metrics}
            />
          )}
        </>
      )}
    </section>
  );
}

/** A row per dataset row: its inputs (which open it) and each variant's mean lead score. */
function RowsTable({
  cells,
  names,
  lead,
  open,
  onOpen,
}: {
  cells: ExperimentCell[];
  names: string[];
  lead: Experiment["matrix"]["metrics"][number] | undefined;
  open: number | null;
  onOpen: (row: number | null) => void;
}) {
  return (
    <Table scrollLabel="Rows of the dataset" className="min-w-[32rem]">
      <TableHeader>
        <TableRow>
          <TableHead className="w-12">Row</TableHead>
          <TableHead>Inputs</TableHead>
          {names.map((n) => (
            <TableHead key={n} className="text-right">
              {n}
              {lead ? <span className="sr-only"> {lead.name}</span> : null}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rowNumbers(cells).map((row) => (
          <TableRow key={row} data-state={open === row ? "selected" : undefined}>
            <TableCell className="tabular-nums">{row}</TableCell>
            <TableCell className="max-w-64">
              <Button
                size="sm"
                variant="ghost"
                className="-ml-2 h-auto max-w-full justify-start truncate py-1 text-left"
                aria-expanded={open === row}
                onClick={() => onOpen(open === row ? null : row)}
              >
                <span className="truncate">
                  {inputsPreview(cellsOf(cells, row, names[0] ?? "")[0]?.inputs ?? {}) ||
                    `Row ${row}`}
                </span>
              </Button>
            </TableCell>
            {names.map((n) => (
              <TableCell key={n} className="text-right tabular-nums">
                {lead ? formatValue(lead, meanScore(cellsOf(cells, row, n), lead.name)) : "—"}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
