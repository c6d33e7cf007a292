import crypto from "node:crypto";
import { z } from "zod";
import { type Principal, principalName } from "@/lib/auth/principal";
import type { VariantChanges, VariantSchema } from "@/lib/contract/datasets";
import type { CrewDef } from "@/lib/crew/schema";
import { jsonObject, time } from "@/lib/db/columns";
import type { Db, Queryable } from "@/lib/db/types";
import { errors } from "@/lib/errors";
import { crewJson } from "@/lib/runs/create-execution";
import { applyChanges } from "./overlay";

type Variant = z.infer<typeof VariantSchema>;
const MAX_VARIANTS_PER_CREW = 100;

const VariantRow = z.object({
  id: z.string(),
  crew: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  changes: jsonObject<VariantChanges>(),
  definition_key: z.string(),
  created_by: z.string(),
  created_at: time,
});
const view = (r: z.infer<typeof VariantRow>): Variant => ({
  ...r,
  created_at: r.created_at.toISOString(),
});
const SELECT =
  "SELECT id, crew, name, description, changes, definition_key, created_by, created_at FROM variants";

export async function listVariants(db: Db, crew: string): Promise<Variant[]> {
  const { rows } = await db.query(
    `${SELECT} WHERE crew = $1 ORDER BY created_at`,
    [crew],
    VariantRow,
  );
  return rows.map(view);
}

/** A saved variant by id or name, or 404. */
export async function getVariant(q: Queryable, crew: string, idOrName: string): Promise<Variant> {
  const byId = z.uuid().safeParse(idOrName).success;
  const { rows } = await q.query(
    `${SELECT} WHERE crew = $1 AND ${byId ? "id = $2::uuid" : "name = $2"}`,
    [crew, idOrName],
    VariantRow,
  );
  const row = rows[0];
  if (!row) throw errors.notFound(`No variant '${idOrName}' of crew '${crew}'.`);
  return view(row);
}

/** Saves a variant once its changes fit the crew as it is now (422 naming what does not). */
export async function createVariant(
  db: Db,
  crew: CrewDef,
  principal: Principal,
  body: { name: string; description?: string; changes: VariantChanges },
): Promise<Variant> {
  if (body.name === "current")
    throw errors.unprocessable("'current' is the crew as it is: give the variant another name.", {
      errors: [{ path: "name", message: "'current' is reserved" }],
    });
  const { key } = crewJson(applyChanges(crew, body.changes));
  const id = crypto.randomUUID();
  await db.tx(async (q) => {
    const { rows } = await q.query(
      "SELECT count(*)::int AS n FROM variants WHERE crew = $1",
      [crew.slug],
      z.object({ n: z.number() }),
    );
    if ((rows[0]?.n ?? 0) >= MAX_VARIANTS_PER_CREW)
      throw errors.conflict(
        `Crew '${crew.slug}' has ${MAX_VARIANTS_PER_CREW} variants: delete one first.`,
      );
    const inserted = await q.query(
      `INSERT INTO variants (id, crew, name, description, changes, definition_key, created_by)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7) ON CONFLICT (crew, name) DO NOTHING RETURNING id`,
      [
        id,
        crew.slug,
        body.name,
        body.description ?? null,
        JSON.stringify(body.changes),
        key,
        principalName(principal),
      ],
    );
    if (!inserted.rowCount)
      throw errors.conflict(`Crew '${crew.slug}' already has a variant named '${body.name}'.`);
  });
  return getVariant(db, crew.slug, id);
}

export async function deleteVariant(db: Db, crew: string, id: string) {
  const { rowCount } = await db.query("DELETE FROM variants WHERE crew = $1 AND id = $2", [
    crew,
    id,
  ]);
  if (!rowCount) throw errors.notFound(`No variant '${id}' of crew '${crew}'.`);
}
