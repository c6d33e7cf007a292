// GET /api/settings/webhook-secret — the signing secret, for an administrator setting up a
// receiver. Fetched only on request, never rendered into a page.
import { WebhookSecretSchema } from "@/lib/contract/webhooks";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";
import { webhookSecret } from "@/lib/webhooks/secret";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async () => json({ secret: webhookSecret() }), {
  action: "admin",
  response: WebhookSecretSchema,
});
