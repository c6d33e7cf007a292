// GET /executions/{id}/ledger/verify — whether the run's decision ledger is intact.

import { LedgerVerdictSchema } from "@/lib/contract/ledger";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { otherMethods, runRoute } from "@/lib/http/routes";
import { listLedger } from "@/lib/ledger/list-entries";
import { verifyChain } from "@/lib/ledger/verify";
import { getExecutionOrThrow } from "@/lib/runs/get-execution";

export const dynamic = "force-dynamic";

export const GET = runRoute<{ id: string }>(
  async ({ principal, crew, params }) => {
    const db = await getDb();
    const run = await getExecutionOrThrow({ db, crew: crew.slug, id: params.id, principal });
    return json(verifyChain(await listLedger({ q: db, id: run.id })));
  },
  { response: LedgerVerdictSchema },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
