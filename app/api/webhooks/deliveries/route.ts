// GET /api/webhooks/deliveries — the outbox: every delivery and each of its attempts.

import * as webhooksApi from "@/lib/api/endpoints/webhooks";
import { apiRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { listDeliveries } from "@/lib/webhooks/deliveries";

export const dynamic = "force-dynamic";

export const GET = apiRoute(webhooksApi.listDeliveries, async ({ query }) =>
  json(await listDeliveries({ db: await getDb(), query })),
);
