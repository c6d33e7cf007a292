// POST /api/webhooks/deliveries/{id}/redeliver — try a delivery again now.
import * as webhooksApi from "@/lib/api/endpoints/webhooks";
import { apiRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { redeliver } from "@/lib/webhooks/deliveries";

export const dynamic = "force-dynamic";

export const POST = apiRoute(webhooksApi.redeliver, async ({ params }) =>
  json(await redeliver({ db: await getDb(), id: params.id })),
);
