import { assertCan } from "@/lib/auth/access";
import type { Principal } from "@/lib/auth/principal";
import { findCrew } from "@/lib/crew/registry";
import type { CrewDef } from "@/lib/crew/schema";
import { getDb } from "@/lib/db";
import { remoteCrewDef } from "./remote-runs";
import { getDeploymentOrThrow } from "./store";

/** The crew a dashboard page is about: a local one, or `@<deployment>` for a remote one. */
export async function crewForPage(
  principal: Principal,
  rawSlug: string,
  { existingRun = false } = {},
): Promise<CrewDef | undefined> {
  assertCan(principal);
  // Pages may get the segment still percent-encoded (`%40name`); a stray `%` stays as it is.
  let slug = rawSlug;
  try {
    slug = decodeURIComponent(rawSlug);
  } catch {
    // not an encoding: a crew that does not exist
  }
  // A run's page stays open while its crew's files are broken (see findCrew).
  if (!slug.startsWith("@")) return findCrew(slug, { existingRun });
  try {
    return remoteCrewDef(await getDeploymentOrThrow(await getDb(), slug.slice(1)));
  } catch {
    return undefined;
  }
}
