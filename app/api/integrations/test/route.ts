// POST /api/integrations/test — checks a tracker answers (lists its teams): the saved one, or the
// one chosen on screen when the body names it ({backend, linearKey?}; a blank key uses the saved one).
import { z } from "zod";
import { unseal } from "@/lib/config/encryption";
import { env } from "@/lib/config/env";
import {
  ConnectionTestSchema,
  type TrackerTestRequest,
  TrackerTestRequestSchema,
} from "@/lib/contract/integrations";
import { getDb } from "@/lib/db";
import { readSetting } from "@/lib/db/settings";
import type { Db } from "@/lib/db/types";
import { json } from "@/lib/http/respond";
import { apiRoute, type NoParams } from "@/lib/http/routes";
import { executeAction } from "@/lib/tracker/actions";
import { searchTeams } from "@/lib/tracker/embedded/projects";
import { TrackerError } from "@/lib/tracker/errors";
import { LinearTracker } from "@/lib/tracker/linear/adapter";
import { SavedTrackerSettings, trackerBackend } from "@/lib/tracker/settings";

export const dynamic = "force-dynamic";

// What either tracker's search_teams answers, as far as this test reads it.
const TeamsAnswer = z.looseObject({ teams: z.array(z.looseObject({ key: z.string() })) });

/** The Linear credential to try when none was typed: the one in use, else the saved key. */
async function linearCredential(db: Db): Promise<{ apiKey?: string; accessToken?: string }> {
  const current = await trackerBackend(db);
  if (current.backend === "linear")
    return "accessToken" in current
      ? { accessToken: current.accessToken }
      : { apiKey: current.apiKey };
  const saved = await readSetting(db, "tracker", SavedTrackerSettings);
  if (!saved?.linearKey)
    throw new TrackerError("permission_denied", "No Linear API key is saved: type one to test it.");
  return { apiKey: unseal(saved.linearKey) };
}

async function teamsOf(db: Db, body: TrackerTestRequest | undefined) {
  if (!body) {
    const { backend } = await trackerBackend(db);
    return { backend, ...TeamsAnswer.parse(await executeAction(db, "search_teams", {})) };
  }
  if (body.backend === "embedded") return { backend: body.backend, ...(await searchTeams(db, {})) };
  const credential = body.linearKey ? { apiKey: body.linearKey } : await linearCredential(db);
  const tracker = new LinearTracker({ ...credential, apiUrl: env().LINEAR_API_URL });
  return { backend: body.backend, ...(await tracker.search_teams({})) };
}

export const POST = apiRoute<NoParams, TrackerTestRequest | undefined>(
  async ({ body }) => {
    const db = await getDb();
    let backend: string = body?.backend ?? "embedded";
    try {
      const result = await teamsOf(db, body);
      backend = result.backend;
      return json({ ok: true, backend, teams: result.teams.map((t) => t.key) });
    } catch (err) {
      if (!(err instanceof TrackerError)) throw err;
      if (!body) backend = (await trackerBackend(db).catch(() => ({ backend }))).backend;
      return json({ ok: false, backend, error: { code: err.code, message: err.message } });
    }
  },
  {
    action: "manage",
    // No body (or an empty one) keeps the old meaning: test the saved backend.
    body: TrackerTestRequestSchema,
    optionalBody: true,
    bodyLimit: 8 * 1024,
    invalid: 422,
    response: ConnectionTestSchema,
  },
);
