// POST /api/integrations/test — checks a tracker answers (lists its teams): the saved one, or the
// one chosen on screen when the body names it ({backend, linearKey?}; a blank key uses the saved one).

import * as integrationsApi from "@/lib/api/endpoints/integrations";
import { apiRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { trackerTeams } from "@/lib/tracker/connection-test";
import { TrackerError } from "@/lib/tracker/errors";
import { trackerBackend } from "@/lib/tracker/settings";

export const dynamic = "force-dynamic";

export const POST = apiRoute(integrationsApi.testTracker, async ({ body }) => {
  const db = await getDb();
  let backend: string = body?.backend ?? "embedded";
  try {
    const result = await trackerTeams(db, body);
    backend = result.backend;
    return json({ ok: true, backend, teams: result.teams.map((t) => t.key) });
  } catch (err) {
    if (!(err instanceof TrackerError)) throw err;
    if (!body) backend = (await trackerBackend(db).catch(() => ({ backend }))).backend;
    return json({ ok: false, backend, error: { code: err.code, message: err.message } });
  }
});
