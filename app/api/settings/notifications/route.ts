// /api/settings/notifications — where notifications go: SMTP server and Slack incoming webhook
// (administrators). The SMTP password and the Slack URL are sealed and never sent back.
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";
import { NotifySettingsInputSchema, NotifySettingsViewSchema } from "@/lib/notify/schemas";
import { describeNotifySettings, saveNotifySettings } from "@/lib/notify/settings";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async () => json(await describeNotifySettings(await getDb())), {
  action: "admin",
  response: NotifySettingsViewSchema,
});

export const PUT = apiRoute(
  async ({ body }) => {
    const db = await getDb();
    await saveNotifySettings(db, body);
    return json(await describeNotifySettings(db));
  },
  {
    action: "admin",
    body: NotifySettingsInputSchema,
    bodyLimit: 16 * 1024,
    response: NotifySettingsViewSchema,
  },
);
