import "server-only";
import path from "node:path";
import { assertCan } from "@/lib/auth/access";
import type { Principal } from "@/lib/auth/principal";
import { env } from "@/lib/config/env";
import { errors } from "@/lib/errors";
import { catalogFingerprint, describeCatalog } from "./describe-catalog";
import { withLines } from "./key-lines";
import { type CrewCatalog, loadCrews } from "./load-crews";
import { modelWarnings } from "./model-warnings";
import type { CrewDef } from "./schema";
import { type CrewWatcher, watchCrews } from "./watch-crews";

declare global {
  var __crewdeckCrews: CrewCatalog | undefined;
  // Each crew as it last loaded well: its runs stay reachable while its files are broken.
  var __crewdeckLastGood: Map<string, CrewDef> | undefined;
}
const slot = globalThis;

function remember(catalog: CrewCatalog) {
  slot.__crewdeckLastGood ??= new Map();
  for (const [slug, crew] of catalog.crews) slot.__crewdeckLastGood.set(slug, crew);
  return catalog;
}

const crewsDir = () => path.resolve(env().CREWS_DIR);

/** The crews of `dir`, with a warning for each model that lacks its key, remembered. */
function readCatalog(dir: string): CrewCatalog {
  const catalog = loadCrews(dir);
  catalog.warnings.push(...modelWarnings(catalog.crews.values(), dir, env()));
  // Said with the line its key is on, for the Crews page, the server log and GET /api/crews.
  catalog.warnings = withLines(dir, catalog.warnings);
  catalog.errors = withLines(dir, catalog.errors);
  return remember(catalog);
}

/** The crews of CREWS_DIR: read at first use, read again whenever its files change. */
export function crewCatalog(): CrewCatalog {
  slot.__crewdeckCrews ??= readCatalog(crewsDir());
  return slot.__crewdeckCrews;
}

/**
 * Reload the catalogue when CREWS_DIR changes. Runs already started are unaffected: each
 * execution keeps the crew it was started with (crew_snapshot). What changed in the crews, their
 * errors and warnings is logged once per change, never per request.
 */
export function watchCrewCatalog(log: (message: string) => void = console.log): CrewWatcher {
  const dir = crewsDir();
  return watchCrews({
    dir,
    onChange: () => {
      const before = catalogFingerprint(crewCatalog());
      const next = readCatalog(dir);
      slot.__crewdeckCrews = next;
      if (catalogFingerprint(next) !== before)
        log(`Crews reloaded from ${dir}:\n${describeCatalog(next) || "  (none)"}`);
    },
  });
}

/** The crew catalogue as the caller may see it: for pages, which have no crew route to check. */
export function crewsFor(principal: Principal): CrewCatalog {
  assertCan(principal);
  return crewCatalog();
}

/**
 * The crew to serve. With `existingRun` (status, events, resume, stop of a run already started), a
 * crew whose files are now broken or gone answers as it last loaded: the run itself goes on with
 * the crew it was started with (crew_snapshot), so its caller must still reach it.
 */
export function findCrew(slug: string, { existingRun = false } = {}): CrewDef | undefined {
  const crew = crewCatalog().crews.get(slug);
  if (crew) return crew;
  return existingRun ? slot.__crewdeckLastGood?.get(slug) : undefined;
}

export function getCrewOrThrow(slug: string, options: { existingRun?: boolean } = {}): CrewDef {
  const crew = findCrew(slug, options);
  if (crew) return crew;
  const broken = crewCatalog().errors.find((e) => e.slug === slug);
  throw errors.notFound(
    broken
      ? `Crew '${slug}' failed to load: ${broken.file}${broken.key ? ` (${broken.key})` : ""}: ${broken.reason}`
      : `No crew named '${slug}'.`,
  );
}
