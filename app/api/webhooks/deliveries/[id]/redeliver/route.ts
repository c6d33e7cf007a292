// POST /api/webhooks/deliveries/{id}/redeliver — try a delivery again now.
import { RedeliverResponseSchema } from "@/lib/contract/webhooks";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";
import { redeliver } from "@/lib/webhooks/deliveries";

export const dynamic = "force-dynamic";

export const POST = apiRoute<{ id: string }>(
  async ({ params }) => json(await redeliver({ db: await getDb(), id: params.id })),
  { action: "manage", response: RedeliverResponseSchema },
);
