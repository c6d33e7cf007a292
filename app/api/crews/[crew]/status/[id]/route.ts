// GET /status/{kickoff_id} — the execution's state, tasks and outputs so far. Polled hard: one query.
import { StatusResponseSchema } from "@/lib/contract/status";
import { getDb } from "@/lib/db";
import { jsonText } from "@/lib/http/respond";
import { otherMethods, runRoute } from "@/lib/http/routes";
import { loadModelPrices } from "@/lib/run-model/pricing";
import { getExecutionOrThrow } from "@/lib/runs/get-execution";
import { statusJson } from "@/lib/runs/status-view";

export const dynamic = "force-dynamic";

export const GET = runRoute<{ id: string }>(
  async ({ principal, crew, params }) => {
    const db = await getDb();
    const row = await getExecutionOrThrow({
      db,
      crew: crew.slug,
      id: params.id,
      principal,
    });
    return jsonText(statusJson(row, await loadModelPrices(db)));
  },
  { response: StatusResponseSchema },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
