// GET /api/webhooks/deliveries — the outbox: every delivery and each of its attempts.

import { getDb } from "@/lib/db";
import { errors, zodFieldErrors } from "@/lib/errors";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";
import { DeliveriesQuerySchema, listDeliveries } from "@/lib/webhooks/deliveries";

export const dynamic = "force-dynamic";

export const GET = apiRoute(
  async ({ request }) => {
    const query = DeliveriesQuerySchema.safeParse(
      Object.fromEntries(new URL(request.url).searchParams),
    );
    if (!query.success)
      throw errors.badRequest("Invalid query parameters.", zodFieldErrors(query.error));
    return json(await listDeliveries({ db: await getDb(), query: query.data }));
  },
  { action: "manage" },
);
