// GET /api/crews — every crew and flow served here: inputs, agents, models, tools and warnings
// (with file and line), and the folders that did not load.

import * as crewApi from "@/lib/api/endpoints/crew";
import { apiRoute } from "@/lib/api/route";
import { env } from "@/lib/config/env";
import { describeCrew } from "@/lib/crew/describe-crew";
import { crewsFor } from "@/lib/crew/registry";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = apiRoute(crewApi.listCrews, async ({ principal }) => {
  const { crews, errors, warnings } = crewsFor(principal);
  return json({
    crews: [...crews.values()].map((c) => describeCrew(c, warnings, env())),
    errors: errors.map((e) => ({
      slug: e.slug,
      file: e.file,
      key: e.key,
      line: e.line ?? null,
      reason: e.reason,
    })),
  });
});
