// POST /api/hooks/receive — takes in webhooks signed with this deployment's WEBHOOK_SECRET
// (Standard Webhooks), each stored once by its webhook-id. GET lists the latest (org token).
import { InboxSchema, ReceivedWebhookSchema } from "@/lib/contract/webhooks";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { apiRoute, noCaller, route } from "@/lib/http/routes";
import { listInbox, receiveWebhook } from "@/lib/webhooks/inbox";

export const dynamic = "force-dynamic";

// The signature is the credential: receiveWebhook verifies it before it reads anything else.
export const POST = route(
  { ...noCaller, action: "secret", response: ReceivedWebhookSchema },
  async ({ request }) => json(await receiveWebhook({ db: await getDb(), request })),
);

export const GET = apiRoute(
  async () => json({ received: await listInbox({ db: await getDb() }) }),
  { action: "manage", response: InboxSchema },
);
