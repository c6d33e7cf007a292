// POST /api/hooks/receive — takes in webhooks signed with this deployment's WEBHOOK_SECRET
// (Standard Webhooks), each stored once by its webhook-id. GET lists the latest (org token).
import * as webhooksApi from "@/lib/api/endpoints/webhooks";
import { apiRoute, noCaller, route } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { listInbox, receiveWebhook } from "@/lib/webhooks/inbox";

export const dynamic = "force-dynamic";

// The signature is the credential: receiveWebhook verifies it before it reads anything else.
export const POST = route(
  webhooksApi.receiveWebhook,
  async ({ request }) => json(await receiveWebhook({ db: await getDb(), request })),
  noCaller,
);

export const GET = apiRoute(webhooksApi.listReceivedWebhooks, async () =>
  json({ received: await listInbox({ db: await getDb() }) }),
);
