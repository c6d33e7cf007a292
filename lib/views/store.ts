import "server-only";
import crypto from "node:crypto";
import { z } from "zod";
import { time } from "@/lib/db/columns";
import type { Db } from "@/lib/db/types";
import { errors } from "@/lib/errors";
import { type SavedView, type SavedViewInput, VIEWS_PER_PERSON_MAX } from "./schema";

// Saved views belong to one person: every query is scoped by user_id, so another person's view
// is indistinguishable from one that does not exist.

const ViewRow = z.object({ id: z.string(), name: z.string(), query: z.string(), created_at: time });
const view = (r: z.infer<typeof ViewRow>): SavedView => ({
  id: r.id,
  name: r.name,
  query: r.query,
  created_at: new Date(r.created_at).toISOString(),
});
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function listViews({ db, userId }: { db: Db; userId: string }) {
  const { rows } = await db.query(
    "SELECT id, name, query, created_at FROM saved_views WHERE user_id = $1 ORDER BY lower(name), name",
    [userId],
    ViewRow,
  );
  return rows.map(view);
}

/** Saves under `name`; the same name again replaces that view's query (`created` false). */
export async function saveView({
  db,
  userId,
  input,
}: {
  db: Db;
  userId: string;
  input: SavedViewInput;
}): Promise<{ view: SavedView; created: boolean }> {
  return db.tx(async (q) => {
    // Saves of one person's views take turns, so the cap below counts every view committed
    // before this one; without it, concurrent saves each counted the same total and all inserted.
    await q.query("SELECT pg_advisory_xact_lock(hashtextextended('saved_views:' || $1, 0))", [
      userId,
    ]);
    const replaced = await q.query(
      `UPDATE saved_views SET query = $3, created_at = now() WHERE user_id = $1 AND name = $2
       RETURNING id, name, query, created_at`,
      [userId, input.name, input.query],
      ViewRow,
    );
    if (replaced.rows[0]) return { view: view(replaced.rows[0]), created: false };
    // The cap is a condition of the insert itself, not a count read before it.
    const { rows } = await q.query(
      `INSERT INTO saved_views (id, user_id, name, query)
       SELECT $1::uuid, $2::uuid, $3::text, $4::text
       WHERE (SELECT count(*) FROM saved_views WHERE user_id = $2) < $5
       RETURNING id, name, query, created_at`,
      [crypto.randomUUID(), userId, input.name, input.query, VIEWS_PER_PERSON_MAX],
      ViewRow,
    );
    if (!rows[0])
      throw errors.conflict(
        `You have ${VIEWS_PER_PERSON_MAX} saved views; delete one before saving another.`,
      );
    return { view: view(rows[0]), created: true };
  });
}

/** Deletes the caller's own view; anyone else's (or none) is a 404. */
export async function deleteView({ db, userId, id }: { db: Db; userId: string; id: string }) {
  const { rowCount } = UUID.test(id)
    ? await db.query("DELETE FROM saved_views WHERE id = $1 AND user_id = $2", [id, userId])
    : { rowCount: 0 };
  if (!rowCount) throw errors.notFound(`You have no saved view with id '${id}'.`);
}
