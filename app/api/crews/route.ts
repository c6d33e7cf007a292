// GET /api/crews — every crew and flow served here: inputs, agents, models, tools and warnings
// (with file and line), and the folders that did not load.

import { env } from "@/lib/config/env";
import { CrewCatalogResponseSchema } from "@/lib/contract/crew-catalog";
import { describeCrew } from "@/lib/crew/describe-crew";
import { crewsFor } from "@/lib/crew/registry";
import { json } from "@/lib/http/respond";
import { apiRoute, type NoParams } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const GET = apiRoute<NoParams>(
  async ({ principal }) => {
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
  },
  { response: CrewCatalogResponseSchema },
);
