// GET /api/webhooks/deliveries — the outbox: every delivery and each of its attempts.

import { DeliveriesPageSchema } from "@/lib/contract/webhooks";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";
import { DeliveriesQuerySchema, listDeliveries } from "@/lib/webhooks/deliveries";

export const dynamic = "force-dynamic";

export const GET = apiRoute(
  async ({ query }) => json(await listDeliveries({ db: await getDb(), query })),
  { action: "manage", query: DeliveriesQuerySchema, response: DeliveriesPageSchema },
);
