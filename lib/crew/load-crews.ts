import fs from "node:fs";
import path from "node:path";
import { errorMessage } from "@/lib/errors";
import { compileFlow } from "./compile-flow";
import { crewFromDoc } from "./crew-doc";
import { findClassicProjects } from "./find-classic-projects";
import { loadClassic } from "./load-classic-crew";
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
    const warnFor =
      (crew: string): Warn =>
      (file, key, message, line) =>
        catalog.warnings.push({
          slug: crew,
          file: rel(file),
          key,
          message,
          ...(line ? { line } : {}),
        });
    const failed = (crew: string, err: unknown) => {
      if (err instanceof LoadError)
        catalog.errors.push({ slug: crew, file: rel(err.file), key: err.key, reason: err.message });
      else
        catalog.errors.push({ slug: crew, file: rel(folder), key: "", reason: errorMessage(err) });
    };
    try {
      if (!SLUG.test(slug)) {
        throw new LoadError(
          folder,
          "",
          "folder names are letters, digits, '_' or '-' (they become the URL)",
        );
      }
      for (const crew of crewsOfFolder(slug, folder)) {
        try {
          catalog.crews.set(crew.slug, crew.load(warnFor(crew.slug)));
        } catch (err) {
          failed(crew.slug, err);
        }
      }
    } catch (err) {
      failed(slug, err);
    }
  }
  return catalog;
}

type FolderCrew = { slug: string; load: (warn: Warn) => CrewDef };

/**
 * The crews a folder serves: one, or — when its Python defines several @CrewBase classes — one
 * per class, each at `<folder>-<class>`.
 */
function crewsOfFolder(slug: string, folder: string): FolderCrew[] {
  const flowFile = findFlow(folder);
  if (flowFile)
    return [
      {
        slug,
        load: (warn) =>
          compileFlow({ slug, file: flowFile, flow: readFlow(flowFile, warn), warn, loadFolder }),
      },
    ];
  const single = path.join(folder, "crew.yaml");
  if (fs.existsSync(single))
    return [
      { slug, load: (warn) => crewFromDoc({ slug, doc: readYaml(single), file: single, warn }) },
    ];
  const jsonc = findJsoncCrew(folder);
  if (jsonc)
    return [{ slug, load: (warn) => loadJsoncCrew({ slug, folder, crewFile: jsonc, warn }) }];
  const projects = findClassicProjects(folder);
  if (projects.length > 1)
    return projects.map((p) => {
      const crew = `${slug}-${kebab(p.className ?? path.basename(p.crewPy, ".py"))}`;
      return { slug: crew, load: (warn) => loadClassic(crew, folder, p, warn) };
    });
  const [project] = projects;
  if (project) return [{ slug, load: (warn) => loadClassic(slug, folder, project, warn) }];
  throw new LoadError(
    folder,
    "",
    "no crew.yaml, and not both config/agents.yaml and config/tasks.yaml (also looked for crew.jsonc, flow.yaml, src/<package>/config/ and the files each @CrewBase class names)",
  );
}

/** A flow's `from_declaration`: one crew's folder. */
function loadFolder(slug: string, folder: string, warn: Warn): CrewDef {
  const crews = crewsOfFolder(slug, folder);
  const [only] = crews;
  if (!only || crews.length > 1)
    throw new LoadError(
      folder,
      "",
      `declares ${crews.length} crews: a flow's from_declaration names one`,
    );
  return only.load(warn);
}

/** `ResearchCrew` → `research-crew`: a class's part of a URL. */
const kebab = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .toLowerCase();
