import { z } from "zod";
import { json, num } from "@/lib/db/columns";
import type { Db } from "@/lib/db/types";

// What the finished items of an `each` gave, kept beside the flow's row rather than in it. A
// method whose steps call crews lets go of the flow for each item and writes where it stands:
// were the results in the row, every write would carry all the items done before it, and a
// list of n items would cost n² to store. Rows are keyed by the method's run and the item, so
// writing one again (a worker taking the run over and redoing an item) changes nothing.

export type DoneItem = { index: number; result: unknown; children: string[] };

/** Keeps `items` of the method run `run` (written before the flow's progress that follows them). */
export async function keepItems(db: Db, flowId: string, run: number, items: DoneItem[]) {
  if (!items.length) return;
  await db.query(
    `INSERT INTO flow_each_items (execution_id, run, item, result, children)
     SELECT $1::uuid, $2::int, x.item, COALESCE(x.result, 'null'::jsonb), x.children
       FROM jsonb_to_recordset($3::jsonb) AS x(item int, result jsonb, children jsonb)
     ON CONFLICT DO NOTHING`,
    [
      flowId,
      run,
      JSON.stringify(
        items.map((i) => ({ item: i.index, result: i.result ?? null, children: i.children })),
      ),
    ],
  );
}

const ItemRow = z.object({
  item: num,
  result: json,
  children: z.array(z.string()),
});

/** The items before `count` of the method run `run`, in order: all of them, or an error. */
export async function itemsBefore(
  db: Db,
  flowId: string,
  run: number,
  count: number,
): Promise<DoneItem[]> {
  if (count === 0) return [];
  const { rows } = await db.query(
    `SELECT item, result, children FROM flow_each_items
      WHERE execution_id = $1 AND run = $2 AND item < $3 ORDER BY item`,
    [flowId, run, count],
    ItemRow,
  );
  if (rows.length !== count || rows.some((r, i) => r.item !== i))
    throw new Error(`flow ${flowId}: ${count - rows.length} finished items of run ${run} are lost`);
  return rows.map((r) => ({ index: r.item, result: r.result, children: r.children }));
}

/** Forgets the items of the method run `run` once its output is written with the flow. */
export async function forgetItems(db: Db, flowId: string, run: number) {
  await db.query("DELETE FROM flow_each_items WHERE execution_id = $1 AND run = $2", [flowId, run]);
}
