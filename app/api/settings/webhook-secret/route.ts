// GET /api/settings/webhook-secret — the signing secret, for an administrator setting up a
// receiver. Fetched only on request, never rendered into a page.
import * as webhooksApi from "@/lib/api/endpoints/webhooks";
import { apiRoute } from "@/lib/api/route";
import { json } from "@/lib/http/respond";
import { webhookSecret } from "@/lib/webhooks/secret";

export const dynamic = "force-dynamic";

export const GET = apiRoute(webhooksApi.webhookSecret, async () =>
  json({ secret: webhookSecret() }),
);
