// /api/integrations/settings — which issue tracker agents use; the Linear key is sealed at rest
// and never sent back (organization tokens and administrators).
import { TrackerSettingsViewSchema } from "@/lib/contract/integrations";
import { getDb } from "@/lib/db";
import { AppError, errorMessage } from "@/lib/errors";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";
import {
  describeTrackerSettings,
  saveTrackerSettings,
  TrackerSettingsSchema,
} from "@/lib/tracker/settings";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async () => json(await describeTrackerSettings(await getDb())), {
  action: "manage",
  response: TrackerSettingsViewSchema,
});

export const PUT = apiRoute(
  async ({ body }) => {
    const db = await getDb();
    try {
      await saveTrackerSettings(db, body);
    } catch (err) {
      throw new AppError("validation", 422, errorMessage(err));
    }
    return json(await describeTrackerSettings(db));
  },
  {
    action: "manage",
    body: TrackerSettingsSchema,
    bodyLimit: 8 * 1024,
    invalid: 422,
    response: TrackerSettingsViewSchema,
  },
);
