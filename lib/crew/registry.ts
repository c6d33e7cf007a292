import "server-only";
import path from "node:path";
import { assertCan } from "@/lib/auth/access";
import type { Principal } from "@/lib/auth/principal";
import { env } from "@/lib/config/env";
import { errors } from "@/lib/errors";
import { type CrewCatalog, loadCrews } from "./load-crews";
import { modelWarnings } from "./model-warnings";
import type { CrewDef } from "./schema";

const slot = globalThis as unknown as { __crewdeckCrews?: CrewCatalog };

/** The crews of CREWS_DIR, read once per process. */
export function crewCatalog(): CrewCatalog {
  if (!slot.__crewdeckCrews) {
    const dir = path.resolve(env().CREWS_DIR);
    const catalog = loadCrews(dir);
    catalog.warnings.push(...modelWarnings(catalog.crews.values(), dir, env()));
    slot.__crewdeckCrews = catalog;
  }
  return slot.__crewdeckCrews;
}

/** The crew catalogue as the caller may see it: for pages, which have no crew route to check. */
export function crewsFor(principal: Principal): CrewCatalog {
  assertCan(principal);
  return crewCatalog();
}

export function getCrewOrThrow(slug: string): CrewDef {
  const crew = crewCatalog().crews.get(slug);
  if (!crew) {
    const broken = crewCatalog().errors.find((e) => e.slug === slug);
    throw errors.notFound(
      broken
        ? `Crew '${slug}' failed to load: ${broken.file}${broken.key ? ` (${broken.key})` : ""}: ${broken.reason}`
        : `No crew named '${slug}'.`,
    );
  }
  return crew;
}
