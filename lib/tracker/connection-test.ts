import { z } from "zod";
import { unseal } from "@/lib/config/encryption";
import { env } from "@/lib/config/env";
import type { TrackerTestRequest } from "@/lib/contract/integrations";
import { readSetting } from "@/lib/db/settings";
import type { Db } from "@/lib/db/types";
import { executeAction } from "./actions";
import { searchTeams } from "./embedded/projects";
import { TrackerError } from "./errors";
import { LinearTracker } from "./linear/adapter";
import { SavedTrackerSettings, trackerBackend } from "./settings";

// Settings → Integrations' "Test connection": whether a tracker answers, by listing its teams.

// What either tracker's search_teams answers, as far as the test reads it.
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

/**
 * The teams of the saved tracker (no `body`), or of the one chosen on screen; a blank Linear key
 * uses the saved one. A tracker that refuses throws its TrackerError.
 */
export async function trackerTeams(db: Db, body: TrackerTestRequest | undefined) {
  if (!body) {
    const { backend } = await trackerBackend(db);
    return { backend, ...TeamsAnswer.parse(await executeAction(db, "search_teams", {})) };
  }
  if (body.backend === "embedded") return { backend: body.backend, ...(await searchTeams(db, {})) };
  const credential = body.linearKey ? { apiKey: body.linearKey } : await linearCredential(db);
  const tracker = new LinearTracker({ ...credential, apiUrl: env().LINEAR_API_URL });
  return { backend: body.backend, ...(await tracker.search_teams({})) };
}
