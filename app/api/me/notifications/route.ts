// /api/me/notifications — the signed-in person's own notification preferences: which events
// reach them, by e-mail and/or Slack.

import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";
import { readPreferences, savePreferences } from "@/lib/notify/preferences";
import { NotificationPrefsSchema } from "@/lib/notify/schemas";

export const dynamic = "force-dynamic";

// Preferences belong to a person: an organization token has none.
function personOf(principal: Principal) {
  if (principal.kind === "org")
    throw new AppError(
      "forbidden",
      403,
      "Preferences belong to a person; sign in or use a personal token.",
    );
  return principal.userId;
}

export const GET = apiRoute(
  async ({ principal }) => json(await readPreferences(await getDb(), personOf(principal))),
  { response: NotificationPrefsSchema },
);

export const PUT = apiRoute(
  async ({ principal, body }) =>
    json(await savePreferences(await getDb(), personOf(principal), body)),
  {
    action: "self",
    body: NotificationPrefsSchema,
    bodyLimit: 4 * 1024,
    response: NotificationPrefsSchema,
  },
);
