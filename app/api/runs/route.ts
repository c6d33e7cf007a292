// GET /api/runs — executions across crews, newest first, filtered and paginated (the runs table).

import type { z } from "zod";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { apiRoute, type NoParams } from "@/lib/http/routes";
import { ListQuerySchema, listExecutions } from "@/lib/runs/list-executions";

export const dynamic = "force-dynamic";

export const GET = apiRoute<NoParams, undefined, z.infer<typeof ListQuerySchema>>(
  async ({ principal, query }) =>
    json(await listExecutions({ db: await getDb(), principal, query })),
  { query: ListQuerySchema },
);
