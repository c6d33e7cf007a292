// POST /api/settings/notifications/test — send a test e-mail with the saved SMTP settings now.
import { env } from "@/lib/config/env";
import { getDb } from "@/lib/db";
import { errors } from "@/lib/errors";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";
import { TestEmailRequestSchema, TestEmailResultSchema } from "@/lib/notify/schemas";
import { sendTestEmail } from "@/lib/notify/test-email";

export const dynamic = "force-dynamic";

export const POST = apiRoute(
  async ({ body, principal }) => {
    const to = body.to ?? (principal.kind === "org" ? undefined : principal.email);
    if (!to) throw errors.unprocessable("Say whom to send it to (`to`).");
    return json(await sendTestEmail(await getDb(), { to, timeoutMs: env().WEBHOOK_TIMEOUT_MS }));
  },
  {
    action: "admin",
    body: TestEmailRequestSchema,
    bodyLimit: 4 * 1024,
    response: TestEmailResultSchema,
  },
);
