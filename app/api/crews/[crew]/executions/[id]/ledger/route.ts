// GET /executions/{id}/ledger — the run's decision ledger (?download=1: as a file to keep).

import type { z } from "zod";
import { LedgerQuerySchema, LedgerResponseSchema } from "@/lib/contract/ledger";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { otherMethods, runRoute } from "@/lib/http/routes";
import { listLedger } from "@/lib/ledger/list-entries";
import { getExecutionOrThrow } from "@/lib/runs/get-execution";

export const dynamic = "force-dynamic";

export const GET = runRoute<{ id: string }, undefined, z.infer<typeof LedgerQuerySchema>>(
  async ({ principal, crew, params, query }) => {
    const db = await getDb();
    // Who may see the run may read its ledger; anyone else learns nothing (404).
    const run = await getExecutionOrThrow({ db, crew: crew.slug, id: params.id, principal });
    const entries = await listLedger({ q: db, id: run.id });
    return json(
      { execution_id: run.id, crew: crew.slug, entries },
      query.download === "1"
        ? { headers: { "content-disposition": `attachment; filename="${run.id}-ledger.json"` } }
        : {},
    );
  },
  { query: LedgerQuerySchema, response: LedgerResponseSchema },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
