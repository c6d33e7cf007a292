// /api/integrations/settings — which issue tracker agents use; the Linear key is sealed at rest
// and never sent back (organization tokens and administrators).
import { getDb } from "@/lib/db";
import { AppError, errorMessage, errors, zodFieldErrors } from "@/lib/errors";
import { readJsonBody, requireObject } from "@/lib/http/read-json";
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
});

export const PUT = apiRoute(
  async ({ request }) => {
    const parsed = TrackerSettingsSchema.safeParse(
      requireObject(await readJsonBody(request, 8 * 1024)),
    );
    if (!parsed.success)
      throw errors.unprocessable("Invalid tracker settings.", {
        errors: zodFieldErrors(parsed.error),
      });
    const db = await getDb();
    try {
      await saveTrackerSettings(db, parsed.data);
    } catch (err) {
      throw new AppError("validation", 422, errorMessage(err));
    }
    return json(await describeTrackerSettings(db));
  },
  { action: "manage" },
);
