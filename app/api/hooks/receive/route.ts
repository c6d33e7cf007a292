// POST /api/hooks/receive — takes in webhooks signed with this deployment's WEBHOOK_SECRET
// (Standard Webhooks), each stored once by its webhook-id. GET lists the latest (org token).
import { getDb } from "@/lib/db";
import { toProblem } from "@/lib/http/problem";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";
import { listInbox, receiveWebhook } from "@/lib/webhooks/inbox";

export const dynamic = "force-dynamic";

export async function POST(request: Request) {
  try {
    return json(await receiveWebhook({ db: await getDb(), request }));
  } catch (err) {
    return toProblem(err);
  }
}

export const GET = apiRoute(
  async () => json({ received: await listInbox({ db: await getDb() }) }),
  { action: "manage" },
);
