import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "@/components/ui/table";

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
 * A Settings list as a table that scrolls sideways inside its card on a phone (390 px) rather
 * than widening the page. A table whose rows may hold nothing focusable needs `scrollLabel`, so
 * its scroll box takes the keyboard focus instead.
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
  return (
    <Table className="relative" aria-label={label} aria-busy={busy} scrollLabel={scrollLabel}>
      <TableHeader>
        <TableRow>
          {columns.map((c) => (
            <TableHead key={c.header} scope="col" className={c.className}>
              {c.hideHeader ? <span className="sr-only">{c.header}</span> : c.header}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={rowKey(row)}>
            {columns.map((c) => (
              <TableCell key={c.header} className={cn(c.className, c.cellClassName)}>
                {c.cell(row)}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
