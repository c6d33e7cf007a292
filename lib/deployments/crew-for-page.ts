import { crewCatalog } from "@/lib/crew/registry";
import type { CrewDef } from "@/lib/crew/schema";
import { getDb } from "@/lib/db";
import { remoteCrewDef } from "./remote-runs";
import { getDeploymentOrThrow } from "./store";

/** The crew a dashboard page is about: a local one, or `@<deployment>` for a remote one. */
export async function crewForPage(rawSlug: string): Promise<CrewDef | undefined> {
  const slug = decodeURIComponent(rawSlug);
  if (!slug.startsWith("@")) return crewCatalog().crews.get(slug);
  try {
    return remoteCrewDef(await getDeploymentOrThrow(await getDb(), slug.slice(1)));
  } catch {
    return undefined;
  }
}
