import { z } from "zod";
import { errors } from "@/lib/errors";
import { CountRow } from "./columns";
import type { Queryable, RowSchema } from "./types";

/** What a caller reaches of a crew's records: a user token only its owner's (null: everyone's). */
type Scope = { crew: string; owner: string | null };

/** The SQL condition of a scope (others' are the same 404 as none), its owner being $3. */
const OWNED = "($3::uuid IS NULL OR owner_user_id = $3::uuid)";

const UUID = z.uuid();

/**
 * One table of records a crew owns, each with an owner (schedules, triggers): room for one more,
 * and reading, listing and deleting them in a caller's scope. An id that is not a uuid, another's
 * record and none at all are the same 404, "No `noun` `id` on this crew.". `table` is a name the
 * code writes, never input.
 */
export function crewOwned<S extends RowSchema>(table: string, row: S, noun: string) {
  const notFound = (id: string) => errors.notFound(`No ${noun} ${id} on this crew.`);
  const uuidOr404 = (id: string) => {
    if (!UUID.safeParse(id).success) throw notFound(id);
    return id;
  };
  return {
    uuidOr404,
    /**
     * Takes the crew's lock on this table for the transaction, then a 409 if it holds `most`
     * already: counted under the lock, so two creations at once cannot both pass the limit.
     */
    async makeRoom(q: Queryable, crew: string, most: number) {
      await q.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [
        JSON.stringify([table, crew]),
      ]);
      const { rows: counted } = await q.query(
        `SELECT count(*)::int AS n FROM ${table} WHERE crew = $1`,
        [crew],
        CountRow,
      );
      if ((counted[0]?.n ?? 0) >= most)
        throw errors.conflict(
          `This crew has ${most} ${table}, the most it may have: delete one first.`,
        );
    },
    /** The record, or a 404; `lock`: FOR UPDATE, for a change in the same transaction. */
    async one(q: Queryable, scope: Scope, id: string, lock = false): Promise<z.output<S>> {
      const { rows } = await q.query(
        `SELECT * FROM ${table} WHERE crew = $1 AND id = $2 AND ${OWNED}${lock ? " FOR UPDATE" : ""}`,
        [scope.crew, uuidOr404(id), scope.owner],
        row,
      );
      const found = rows[0];
      if (!found) throw notFound(id);
      return found;
    },
    /** Those in scope, oldest first. */
    async all(q: Queryable, scope: Scope): Promise<z.output<S>[]> {
      const { rows } = await q.query(
        `SELECT * FROM ${table} WHERE crew = $1 AND ($2::uuid IS NULL OR owner_user_id = $2::uuid)
      ORDER BY created_at, id`,
        [scope.crew, scope.owner],
        row,
      );
      return rows;
    },
    async remove(q: Queryable, scope: Scope, id: string) {
      const { rowCount } = await q.query(
        `DELETE FROM ${table} WHERE crew = $1 AND id = $2 AND ${OWNED}`,
        [scope.crew, uuidOr404(id), scope.owner],
      );
      if (!rowCount) throw notFound(id);
    },
  };
}
