// /api/settings/notifications — where notifications go: SMTP server and Slack incoming webhook
// (administrators). The SMTP password and the Slack URL are sealed and never sent back.

import * as notificationsApi from "@/lib/api/endpoints/notifications";
import { apiRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { describeNotifySettings, saveNotifySettings } from "@/lib/notify/settings";

export const dynamic = "force-dynamic";

export const GET = apiRoute(notificationsApi.notificationSettings, async () =>
  json(await describeNotifySettings(await getDb())),
);

export const PUT = apiRoute(notificationsApi.saveNotificationSettings, async ({ body }) => {
  const db = await getDb();
  await saveNotifySettings(db, body);
  return json(await describeNotifySettings(db));
});
