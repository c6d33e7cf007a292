// /api/me/notifications — the signed-in person's own notification preferences: which events
// reach them, by e-mail and/or Slack.

import * as notificationsApi from "@/lib/api/endpoints/notifications";
import { apiRoute } from "@/lib/api/route";
import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { json } from "@/lib/http/respond";
import { readPreferences, savePreferences } from "@/lib/notify/preferences";

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

export const GET = apiRoute(notificationsApi.myNotificationPreferences, async ({ principal }) =>
  json(await readPreferences(await getDb(), personOf(principal))),
);

export const PUT = apiRoute(
  notificationsApi.saveMyNotificationPreferences,
  async ({ principal, body }) =>
    json(await savePreferences(await getDb(), personOf(principal), body)),
);
