// /api/integrations/settings — which issue tracker agents use; the Linear key is sealed at rest
// and never sent back (organization tokens and administrators).

import * as integrationsApi from "@/lib/api/endpoints/integrations";
import { apiRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { AppError, errorMessage } from "@/lib/errors";
import { json } from "@/lib/http/respond";
import { describeTrackerSettings, saveTrackerSettings } from "@/lib/tracker/settings";

export const dynamic = "force-dynamic";

export const GET = apiRoute(integrationsApi.trackerSettings, async () =>
  json(await describeTrackerSettings(await getDb())),
);

export const PUT = apiRoute(integrationsApi.saveTrackerSettings, async ({ body }) => {
  const db = await getDb();
  try {
    await saveTrackerSettings(db, body);
  } catch (err) {
    throw new AppError("validation", 422, errorMessage(err));
  }
  return json(await describeTrackerSettings(db));
});
