// POST /api/webhooks/deliveries/{id}/redeliver — try a delivery again now.
import { getDb } from "@/lib/db";
import { orgRoute } from "@/lib/http/crew-route";
import { json } from "@/lib/http/respond";
import { redeliver } from "@/lib/webhooks/deliveries";

export const dynamic = "force-dynamic";

export const POST = orgRoute<{ id: string }>(async ({ params }) =>
  json(await redeliver({ db: await getDb(), id: params.id })),
);
