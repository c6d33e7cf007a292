// DELETE /datasets/{id}/rows/{position} — one row of a dataset.
import { z } from "zod";
import { ownerScope } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { deleteRow } from "@/lib/experiments/datasets";
import { crewRoute, otherMethods } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

const Params = z.object({
  id: z.uuid({ error: (i) => `No dataset '${String(i.input)}'.` }),
  position: z.coerce.number({ error: "No such row." }).int("No such row.").min(1, "No such row."),
});

export const DELETE = crewRoute<{ id: string; position: string }>(
  async ({ crew, principal, params }) => {
    await deleteRow(
      await getDb(),
      ownerScope(crew.slug, principal),
      params.id,
      Number(params.position),
    );
    return new Response(null, { status: 204 });
  },
  { action: "start", params: Params },
);

export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");
