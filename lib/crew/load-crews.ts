import fs from "node:fs";
import path from "node:path";
import { errorMessage } from "@/lib/errors";
import { compileFlow } from "./compile-flow";
import { crewFromDoc } from "./crew-doc";
import { findClassicProject, loadClassic } from "./load-classic-crew";
import { findFlow, readFlow } from "./load-flow";
import { findJsoncCrew, loadJsoncCrew } from "./load-jsonc-crew";
import { LoadError, readYaml, type Warn } from "./read-files";
import type { CrewDef, CrewLoadError, CrewWarning } from "./schema";

export type CrewCatalog = {
  crews: Map<string, CrewDef>;
  errors: CrewLoadError[];
  warnings: CrewWarning[];
};

const SLUG = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** Reads every crew folder; a broken crew is reported and skipped, never fatal to the others. */
export function loadCrews(dir: string): CrewCatalog {
  const catalog: CrewCatalog = { crews: new Map(), errors: [], warnings: [] };
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    catalog.errors.push({
      slug: "*",
      file: dir,
      key: "",
      reason: `cannot read CREWS_DIR: ${errorMessage(err)}`,
    });
    return catalog;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
    const slug = entry.name;
    const folder = path.join(dir, slug);
    // Files are named relative to CREWS_DIR: messages reach API clients and the dashboard.
    const rel = (file: string) => path.relative(dir, file) || ".";
    const warn = (file: string, key: string, message: string) =>
      catalog.warnings.push({ slug, file: rel(file), key, message });
    try {
      if (!SLUG.test(slug)) {
        throw new LoadError(
          folder,
          "",
          "folder names are letters, digits, '_' or '-' (they become the URL)",
        );
      }
      catalog.crews.set(slug, loadCrewFolder(slug, folder, warn));
    } catch (err) {
      if (err instanceof LoadError)
        catalog.errors.push({ slug, file: rel(err.file), key: err.key, reason: err.message });
      else catalog.errors.push({ slug, file: rel(folder), key: "", reason: errorMessage(err) });
    }
  }
  return catalog;
}

function loadCrewFolder(slug: string, folder: string, warn: Warn): CrewDef {
  const flowFile = findFlow(folder);
  if (flowFile)
    return compileFlow({
      slug,
      file: flowFile,
      flow: readFlow(flowFile, warn),
      warn,
      loadFolder: loadCrewFolder,
    });
  const single = path.join(folder, "crew.yaml");
  if (fs.existsSync(single))
    return crewFromDoc({ slug, doc: readYaml(single), file: single, warn });
  const jsonc = findJsoncCrew(folder);
  if (jsonc) return loadJsoncCrew({ slug, folder, crewFile: jsonc, warn });
  const project = findClassicProject(folder);
  if (project) return loadClassic(slug, folder, project, warn);
  throw new LoadError(
    folder,
    "",
    "no crew.yaml, and not both config/agents.yaml and config/tasks.yaml (also looked for crew.jsonc, flow.yaml and src/<package>/config/)",
  );
}
