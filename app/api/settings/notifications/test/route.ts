// POST /api/settings/notifications/test — send a test e-mail with the saved SMTP settings now.

import * as notificationsApi from "@/lib/api/endpoints/notifications";
import { apiRoute } from "@/lib/api/route";
import { env } from "@/lib/config/env";
import { getDb } from "@/lib/db";
import { errors } from "@/lib/errors";
import { json } from "@/lib/http/respond";
import { sendTestEmail } from "@/lib/notify/test-email";

export const dynamic = "force-dynamic";

export const POST = apiRoute(notificationsApi.sendTestEmail, async ({ body, principal }) => {
  const to = body.to ?? (principal.kind === "org" ? undefined : principal.email);
  if (!to) throw errors.unprocessable("Say whom to send it to (`to`).");
  return json(await sendTestEmail(await getDb(), { to, timeoutMs: env().WEBHOOK_TIMEOUT_MS }));
});
