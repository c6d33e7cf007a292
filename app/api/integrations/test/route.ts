// POST /api/integrations/test — checks the chosen tracker answers (lists its teams).
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";
import { executeAction } from "@/lib/tracker/actions";
import { TrackerError } from "@/lib/tracker/errors";
import { trackerBackend } from "@/lib/tracker/settings";

export const dynamic = "force-dynamic";

export const POST = apiRoute(
  async () => {
    const db = await getDb();
    const { backend } = await trackerBackend(db);
    try {
      const { teams } = (await executeAction(db, "search_teams", {})) as {
        teams: { key: string }[];
      };
      return json({ ok: true, backend, teams: teams.map((t) => t.key) });
    } catch (err) {
      if (!(err instanceof TrackerError)) throw err;
      return json({ ok: false, backend, error: { code: err.code, message: err.message } });
    }
  },
  { action: "manage" },
);
