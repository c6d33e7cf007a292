"use client";

import { Fragment, type ReactNode } from "react";
import { cn } from "@/components/ui/cn";
import * as T from "@/components/ui/table";
import { useMediaQuery } from "@/components/ui/use-media-query";

export type Column<T> = {
  /** The column's name; read out only when `hideHeader` (an actions column). */
  header: string;
  hideHeader?: boolean;
  cell: (row: T) => ReactNode;
  /** On the header and every cell: alignment, and hiding on narrow screens. */
  className?: string;
  cellClassName?: string;
};

/**
 * A Settings list: a table, or on a phone a card per row (each column's name beside its value,
 * the actions below). A table whose rows may hold nothing focusable needs `scrollLabel`, so its
 * scroll box takes the keyboard focus when it must scroll.
 */
export function DataTable<T>({
  label,
  scrollLabel,
  columns,
  rows,
  rowKey,
  busy,
}: {
  label: string;
  scrollLabel?: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string | number;
  busy?: boolean;
}) {
  const narrow = useMediaQuery("(max-width: 767px)");
  if (narrow)
    return (
      <ul aria-label={label} aria-busy={busy} className="m-0 grid list-none gap-2 p-0">
        {rows.map((row) => (
          <li key={rowKey(row)} className="min-w-0 rounded-lg border bg-card p-3">
            <dl className="m-0 grid grid-cols-[minmax(5.5rem,auto)_minmax(0,1fr)] gap-x-3 gap-y-1.5 text-sm">
              {columns
                .filter((c) => !c.hideHeader)
                .map((c) => (
                  <Fragment key={c.header}>
                    <dt className="text-muted-foreground">{c.header}</dt>
                    <dd className="m-0 min-w-0 break-words">{c.cell(row)}</dd>
                  </Fragment>
                ))}
            </dl>
            {columns
              .filter((c) => c.hideHeader)
              .map((c) => ({ c, actions: c.cell(row) }))
              // No actions for this row (your own, say): no empty row of them.
              .filter(
                ({ actions }) => actions !== null && actions !== undefined && actions !== false,
              )
              .map(({ c, actions }) => (
                <div
                  key={c.header}
                  className="mt-3 flex flex-wrap items-center gap-2 border-t pt-3"
                >
                  {actions}
                </div>
              ))}
          </li>
        ))}
      </ul>
    );
  return (
    <T.Table className="relative" aria-label={label} aria-busy={busy} scrollLabel={scrollLabel}>
      <T.TableHeader>
        <T.TableRow>
          {columns.map((c) => (
            <T.TableHead key={c.header} scope="col" className={c.className}>
              {c.hideHeader ? <span className="sr-only">{c.header}</span> : c.header}
            </T.TableHead>
          ))}
        </T.TableRow>
      </T.TableHeader>
      <T.TableBody>
        {rows.map((row) => (
          <T.TableRow key={rowKey(row)}>
            {columns.map((c) => (
              <T.TableCell key={c.header} className={cn(c.className, c.cellClassName)}>
                {c.cell(row)}
              </T.TableCell>
            ))}
          </T.TableRow>
        ))}
      </T.TableBody>
    </T.Table>
  );
}
