import type { Dataset } from "@/lib/api/client";

export type RowProblem = { row?: number; line?: number; path: string; message: string };

/** Rows starting with "{" are JSON Lines; anything else is read as CSV. */
export function rowsType(text: string): "application/jsonl" | "text/csv" {
  return text.trimStart().startsWith("{") ? "application/jsonl" : "text/csv";
}

/** The server's row problems, keeping the row and line only where they are numbers. */
export function rowProblemsOf(
  errors: readonly { path: string; message: string; [k: string]: unknown }[],
): RowProblem[] {
  return errors.map(({ row, line, ...e }) => ({
    ...e,
    ...(typeof row === "number" ? { row } : {}),
    ...(typeof line === "number" ? { line } : {}),
  }));
}

/** "Row 3 (line 4): " before a problem's path, or nothing when it is not about one row. */
export function rowProblemPrefix(p: Pick<RowProblem, "row" | "line">): string {
  return p.row ? `Row ${p.row}${p.line ? ` (line ${p.line})` : ""}: ` : "";
}

/** What the toast says once the dataset is made or the rows are added. */
export function savedMessage(
  dataset: Pick<Dataset, "name"> | undefined,
  name: string,
  added: number,
): string {
  return dataset
    ? `${added} rows added to “${dataset.name}”.`
    : `Dataset “${name}” created${added ? ` with ${added} rows` : ""}.`;
}

export function saveLabel(busy: boolean, adding: boolean): string {
  return busy ? "Saving…" : adding ? "Add the rows" : "Create the dataset";
}
