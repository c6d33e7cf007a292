/** The row an INSERT or UPDATE … RETURNING gave back; its absence is our bug, not the caller's. */
export function returnedRow<T>(rows: T[]): T {
  const row = rows[0];
  if (row === undefined) throw new Error("The statement returned no row.");
  return row;
}
