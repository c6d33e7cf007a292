// GET /api/runs/stats — the overview's counts and 14-day series.
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";
import { executionStats } from "@/lib/runs/list-executions";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async ({ principal }) =>
  json(await executionStats({ db: await getDb(), principal })),
);
